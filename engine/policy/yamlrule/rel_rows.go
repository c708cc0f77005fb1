package yamlrule

// The lets of a rule that another rule joins (join: rule:ID), computed once
// per element and document. The partner set of such a join is the joined
// rule's elements that pass the join's where, which reads the joined rule's
// lets (tool-result-flagged's $reason and $answered, for its own retried
// and tool-result-missing's): built in an environment of its own, it
// computed every let its where and on paths read for every element, and
// the rule's own evaluation computed them again. Both walk the same
// elements in the same order (collect), so the lets are kept per element's
// place in that list for the document, and whichever comes second reads
// them. Only for a rule without group: a let of a grouped rule may read
// $group, which only the rule's own evaluation sets.

// letRows holds the lets of one rule's elements in one document: the lets
// of element i at memo[i*len(lets):], valid when gen is Cache.gen+1.
type letRows struct {
	gen  int
	n    int // the elements
	memo []letMemo
}

// rowsOf returns the let memos of r's n elements in the cache's document,
// or nil when r keeps none.
func (c *Cache) rowsOf(r *Rule, n int) []letMemo {
	if !yamlShortcuts || !r.rel.rows || n == 0 {
		return nil
	}
	if c.rows == nil {
		c.rows = map[*Rule]*letRows{}
	}
	lr := c.rows[r]
	if lr == nil {
		lr = &letRows{}
		c.rows[r] = lr
	}
	if lr.gen == c.gen+1 {
		if lr.n != n { // not the same elements: keep nothing
			return nil
		}
		return lr.memo
	}
	lr.gen, lr.n = c.gen+1, n
	k := n * len(r.rel.lets)
	if cap(lr.memo) < k {
		lr.memo = make([]letMemo, k)
	} else {
		lr.memo = lr.memo[:k]
		clear(lr.memo)
	}
	c.rowsUsed = append(c.rowsUsed, lr)
	return lr.memo
}

// resetRows drops the document's let values (keeping the memory).
func (c *Cache) resetRows() {
	for _, lr := range c.rowsUsed {
		clear(lr.memo) // drop references to the document
		lr.gen = 0
	}
	c.rowsUsed = c.rowsUsed[:0]
}

// atRow moves env to element i of its rule's elements, els[i] of rows
// (rowsOf), whose lets it then reads from and keeps in rows.
func (env *relEnv) atRow(el *elem, i int, rows []letMemo) *scope {
	sc := env.at(el)
	if rows != nil {
		env.row, env.ord = rows, i
	}
	return sc
}

// rowMemo returns the kept memo of let li of the element env stands at, or
// nil when env keeps none, or when it is being computed (a let read again
// while it is computed, which the environment's own memo reports).
func (env *relEnv) rowMemo(li int) *letMemo {
	if env.ord < 0 || env.row == nil {
		return nil
	}
	m := &env.row[env.ord*len(env.r.rel.lets)+li]
	if m.busy {
		return nil
	}
	return m
}
