package yamlrule

// Two shortcuts that take conditions out of a rule's element loop, both
// settled when the rule is compiled:
//
//   - A condition on the document alone ($document.profile, $document.format
//     …) holds for every element of a document or for none. It is evaluated
//     once per document and rule (or case): a where that fails skips the
//     walk, a case that fails is not tried on any element, an unless that
//     fails never leaves an element out.
//   - A where condition on a message's role (role: for messages[*],
//     $message.role: below it) that reads nothing but the role is evaluated
//     once per distinct role of the document, and the walk visits only the
//     messages whose role passes: the others cost nothing. Rules with the
//     same condition share the list (`role: tool` is common).
//
// A condition moves ahead of the others only when none before it reads a
// let: conditions are tried in order, and a let computed or not must stay
// the same (a let that depends on itself is an error).

import (
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// split is a list of conditions with those on the document taken out.
type split struct {
	doc  []check // the conditions on the document, in order
	rest []check // the others, in order
}

// docOnly reports whether c reads the document only: its path starts with
// $document and its condition reads nothing but the value.
func docOnly(c *check) bool {
	return len(c.path) > 0 && c.path[0].dollar && c.path[0].ctx == ctxDocument && !c.cond.readsElement()
}

// movable reports whether c may be evaluated after the conditions that
// follow it: it reads no let and nothing beyond its value.
func movable(c *check) bool {
	return len(c.path) == 0 || (!c.path[0].virt && !c.cond.readsElement())
}

// splitDoc takes out of cs the conditions on the document that may move
// ahead of those before them.
func splitDoc(cs []check) split {
	var s split
	free := true // the conditions so far may be reordered
	for _, c := range cs {
		if free && docOnly(&c) {
			s.doc = append(s.doc, c)
			continue
		}
		free = free && movable(&c)
		s.rest = append(s.rest, c)
	}
	return s
}

// roleFilter is a where condition on the role of the messages a rule walks.
type roleFilter struct {
	cond *condition
	id   int   // filterID: rules with the same condition share the list
	of   check // the where condition it was taken from
}

// roleFilterOf returns the condition of where on the role of the messages
// given walks, when one reads only the role and may move ahead of those
// before it, and where without it.
func roleFilterOf(given []step, where []check) (*roleFilter, []check) {
	if len(given) == 0 || given[0].field != "messages" || !given[0].each {
		return nil, where
	}
	for i := range where {
		c := &where[i]
		var onRole bool
		switch len(given) {
		case 1:
			onRole = len(c.path) == 1 && c.path[0].name == "role"
		default:
			onRole = len(c.path) == 2 && c.path[0].name == "$message" && c.path[1].name == "role"
		}
		if onRole && !c.cond.readsElement() {
			rest := append(append([]check{}, where[:i]...), where[i+1:]...)
			return &roleFilter{cond: &c.cond, id: filterID(strings.Join(c.cond.descs(), "\x00")), of: *c}, rest
		}
		if !movable(c) {
			break
		}
	}
	return nil, where
}

// filterIDs numbers the distinct role conditions of the compiled rules.
var filterIDs = map[string]int{}

func filterID(sig string) int {
	setIDs.Lock() // the same lock as the partner sets' numbers
	defer setIDs.Unlock()
	id, ok := filterIDs[sig]
	if !ok {
		id = len(filterIDs)
		filterIDs[sig] = id
	}
	return id
}

// hoisted holds a rule's conditions split for the shortcuts.
type hoisted struct {
	where    split   // where, its role condition left out when filter is set
	plain    []check // where.rest with the role condition: for a walk without the filter
	filter   *roleFilter
	unless   split
	cases    []split // by case
	anyCases bool    // a case has a condition on the document
	// walk, for a relational rule, is the shared walk (walks.go) of its
	// elements and the conditions at the start of its where that read
	// their value alone; walkRest the conditions left to check
	walk     *walkSpec
	walkRest []check
}

// hoist splits r's conditions; r.where and r.rel are compiled.
func (r *Rule) hoist() {
	h := &hoisted{where: splitDoc(r.where)}
	h.plain = h.where.rest
	h.filter, h.where.rest = roleFilterOf(r.given, h.where.rest)
	if r.rel != nil && len(r.given) > 0 {
		h.walk, h.walkRest = sharedWalk(r.given, r.role, h)
	}
	if r.rel != nil {
		h.unless = splitDoc(r.rel.unless)
		for _, c := range r.rel.cases {
			s := splitDoc(c.when)
			h.anyCases = h.anyCases || len(s.doc) > 0
			h.cases = append(h.cases, s)
		}
	}
	r.hoisted = h
}

// docHolds evaluates conditions on the document alone.
func docHolds(cs []check, doc ast.Object, mem *memberRows) bool {
	if len(cs) == 0 {
		return true
	}
	sc := newScope(doc)
	sc.mem = mem
	return allHold(cs, doc, &sc)
}

// WalksByRole reports whether r's walk may visit the messages of a role
// only, from the document's role index (which needs a relCache).
func (r *Rule) WalksByRole() bool {
	return r.role != "" || (r.hoisted != nil && r.hoisted.filter != nil)
}

// only returns the top-level elements r's walk visits and the where it
// checks on them: every message or those of r.role, and where; or with the
// shortcuts those whose role passes the role condition, and where without
// it or the conditions on the document (checked before the walk).
func (r *Rule) only(cache *Cache) ([]int, []check) {
	h := r.hoisted
	switch {
	case yamlShortcuts && h.filter != nil && cache != nil:
		return cache.narrow(r.given, cache.rolesPassing(h.filter)), h.where.rest
	case yamlShortcuts:
		var only []int
		if cache != nil {
			only = cache.narrow(r.given, cache.only(r.role))
		}
		return only, h.plain
	case cache != nil:
		return cache.only(r.role), r.where
	}
	return nil, r.where
}

// unlessOf returns whether r's unless may leave elements of the document
// out, and the conditions left to check on each.
func (r *Rule) unlessOf(doc ast.Object, mem *memberRows) (bool, []check) {
	if len(r.rel.unless) == 0 {
		return false, nil
	}
	if !yamlShortcuts {
		return true, r.rel.unless
	}
	if !docHolds(r.hoisted.unless.doc, doc, mem) {
		return false, nil
	}
	return true, r.hoisted.unless.rest
}

// casesFor records, for the document, which of r's cases its conditions on
// the document allow (env.caseOK; nil when every case may apply).
func (r *Rule) casesFor(env *relEnv) {
	env.caseOK = env.caseOK[:0]
	if !yamlShortcuts || !r.hoisted.anyCases {
		return
	}
	for _, c := range r.hoisted.cases {
		env.caseOK = append(env.caseOK, docHolds(c.doc, env.cache.doc, &env.cache.members))
	}
}

// firstCaseOf is firstCase over r's cases, with the verdicts of casesFor.
func (r *Rule) firstCaseOf(env *relEnv, v ast.Value, sc *scope) int {
	if len(env.caseOK) == 0 {
		return firstCase(r.rel.cases, v, sc)
	}
	for i, c := range r.hoisted.cases {
		if env.caseOK[i] && allHold(c.rest, v, sc) {
			return i
		}
	}
	return -1
}
