package yamlrule

// Evaluation of the relational YAML rules: the walk to the elements, the
// lets and groups their paths read, and the findings.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chatlint/chatlint/engine/policy/pack"
	"github.com/open-policy-agent/opa/v1/ast"
)

// relEnv is what the relational paths of one rule read while it looks at
// one element.
type relEnv struct {
	r     *Rule
	cache *Cache
	el    elem  // the element env stands at
	sc    scope // el's scope, reading env's lets: its doc, mem and rel set once per document
	// caseOK: which cases the document's conditions allow (hoist.go)
	caseOK []bool
	rank   int
	count  int
	first  *elem // the first element of el's group (in els)
	// memo holds the lets computed for the element env stands at: a let is
	// read by several conditions and the message. An entry is valid when
	// its gen is memoGen, which moving to another element advances, rather
	// than clearing the entries per element.
	memo    []letMemo
	memoGen uint32
	// row holds the lets of the rule's elements kept for the document
	// (rel_rows.go), ord the place of the element env stands at in them
	// (-1: none)
	row []letMemo
	ord int
	// buffers reused from document to document
	els   []elem
	ranks [][2]int
	keys  []ast.Value
	size  []int
	index keyIndex
	// instants memoizes {instant: PATH} lets (session.go)
	instants instantMemo
}

type letMemo struct {
	gen   uint32 // valid when it is the env's memoGen
	busy  bool   // being computed: reading it again is a let that depends on itself
	value ast.Value
	n     int
	first *elem // in the partner set, which outlives the memo
	last  *elem
}

func newScope(doc ast.Object) scope {
	return scope{doc: doc, msgIdx: -1, callIdx: -1, toolIdx: -1, entIdx: -1, row: 0}
}

// at returns the scope of element el reading env's lets, with env standing
// at it. The scope is env's own (env.sc), valid until env moves to another
// element.
func (env *relEnv) at(el *elem) *scope {
	if el.v != env.el.v || el.msgIdx != env.el.msgIdx || el.callIdx != env.el.callIdx {
		env.memoGen++ // every memo entry is stale
		env.ord = -1
	}
	env.el = *el
	el.fill(&env.sc, env.cache)
	return &env.sc
}

// lookupValue is resolve without the JSON Pointer, which the relational
// forms never need: resolve builds it by concatenation.
func lookupValue(v ast.Value, path []seg, sc *scope) ast.Value {
	row := int32(-1) // the memberRows row of v (members.go)
	if len(path) > 0 {
		h := &path[0] // what it names is known from parsing (head.go)
		if sc.rel != nil && h.virt {
			if x, ok := sc.rel.virtual(path); ok {
				return x
			}
		}
		if h.isIndex {
			return ast.InternedValue(int(sc.pos))
		}
		o := asObject(v)
		switch {
		case h.dollar || o == nil:
			if ctx := sc.contextOf(h.ctx); ctx != nil {
				v, path, row = ctx, path[1:], sc.ctxRow(h.ctx)
			} else {
				row = sc.row // still the element
			}
		default:
			// the element's own member wins over a context of that name;
			// looked up once, not again by the walk below
			t := memberAt(o, h, sc, sc.row)
			if t != nil {
				v, path = t.Value, path[1:]
				break
			}
			ctx := sc.contextOf(h.ctx)
			if ctx == nil {
				return nil
			}
			v, path, row = ctx, path[1:], sc.ctxRow(h.ctx)
		}
	}
	for i := range path {
		s := &path[i]
		if c := asObject(v); c != nil {
			var t *ast.Term
			if i == 0 {
				t = memberAt(c, s, sc, row)
			} else {
				t = c.Get(s.key)
			}
			if t == nil {
				return nil
			}
			v = t.Value
			continue
		}
		c, ok := v.(*ast.Array)
		if !ok || s.index < 0 || s.index >= c.Len() {
			return nil
		}
		v = c.Elem(s.index).Value
	}
	return v
}

// partners counts the element's partners in j and returns the first and
// the last.
func (env *relEnv) partners(j *joinSpec) (int, *elem, *elem) {
	ps, n, first, last := env.partnersAt(j)
	if n == 0 {
		return 0, nil, nil
	}
	return n, &ps.els[first], &ps.els[last]
}

// partnersAt is partners with the first and the last as positions in the
// partner set.
func (env *relEnv) partnersAt(j *joinSpec) (ps *partnerSet, n, first, last int) {
	ps = env.cache.set(j)
	if lo, hi, ok := partnerRange(ps, j, &env.el); ok { // session.go
		if hi <= lo {
			return ps, 0, -1, -1
		}
		return ps, hi - lo, lo, hi - 1
	}
	// Most sets have a partner or two per key, found by the walk below; a
	// set whose walks have visited a few partners per element has big
	// groups and is grouped by key once (groups.go).
	if yamlShortcuts && (ps.groups.built || ps.steps > 4*len(ps.els)+64) {
		if lo, hi, ok := env.keyedRange(j, ps); ok { // groups.go
			if hi <= lo {
				return ps, 0, -1, -1
			}
			g := ps.groups.members
			return ps, hi - lo, int(g[lo]), int(g[hi-1])
		}
	}
	first, last = -1, -1
	env.eachPartner(j, ps, func(i int) {
		if n == 0 {
			first = i
		}
		last = i
		n++
	})
	ps.steps += n
	return ps, n, first, last
}

// eachPartner calls visit with the position in ps of each partner in j of
// the element env stands at, in document order.
func (env *relEnv) eachPartner(j *joinSpec, ps *partnerSet, visit func(int)) {
	el := &env.el
	if lo, hi, ok := partnerRange(ps, j, el); ok {
		for i := lo; i < hi; i++ {
			visit(i)
		}
		return
	}
	sc := &env.sc // reads env's lets (at)
	var buf [8]ast.Value
	var differ []ast.Value
	if d := len(j.differMine); d > 0 {
		differ = appendValues(buf[4:4:8], el.v, j.differMine, sc)
	}
	at := el.position()
	consider := func(i int) {
		p := &ps.els[i]
		if (j.order < 0 && p.position() >= at) || (j.order > 0 && p.position() <= at) {
			return
		}
		if d := len(differ); d > 0 && equalValues(differ, ps.differ[i*d:(i+1)*d]) {
			return
		}
		visit(i)
	}
	k := len(j.theirs)
	if k == 0 {
		for i := range ps.els {
			consider(i)
		}
		return
	}
	key := appendValues(buf[:0:4], el.v, j.mine, sc)
	h, ok := hashValues(key)
	if !ok {
		return
	}
	ps.index.each(h, func(i int) bool {
		if equalValues(key, ps.keys[i*k:(i+1)*k]) {
			consider(i)
		}
		return true
	})
}

// virtual resolves a path that starts with $group or the name of a let; ok
// is false for any other path.
func (env *relEnv) virtual(path []seg) (ast.Value, bool) {
	h := &path[0]
	if !h.virt {
		return nil, false
	}
	var n int
	var first, last *elem
	switch {
	case h.isGroup && len(env.r.rel.group) > 0:
		n, first = env.count, env.first
		if len(path) > 1 && path[1].name == "rank" {
			return ast.InternedValue(env.rank), true
		}
	default:
		li := -1
		for i, x := range env.r.rel.lets {
			if x.sym == h.sym {
				li = i
			}
		}
		if li < 0 {
			return nil, false
		}
		l, m := env.r.rel.lets[li], &env.memo[li]
		valid := env.memoGen
		if rm := env.rowMemo(li); rm != nil {
			m, valid = rm, 1 // the rows are cleared per document
		}
		if m.gen != valid {
			if m.busy {
				env.cache.fail(fmt.Errorf("rule %s: let %s depends on itself", env.r.ID, l.name))
				return nil, true
			}
			m.busy = true
			if l.join == nil {
				m.value = env.value(l)
			} else {
				m.n, m.first, m.last = env.joined(l)
			}
			m.busy, m.gen = false, valid
		}
		if l.join == nil {
			v := m.value
			if v != nil && len(path) > 1 {
				v = lookupValue(v, path[1:], &scope{})
			}
			return v, true
		}
		n, first, last = m.n, m.first, m.last
		if len(path) > 1 && path[1].name == "max" { // session.go
			return env.maxOf(l.join, path[2:]), true
		}
	}
	if len(path) < 2 {
		return nil, true
	}
	switch path[1].name {
	case "count":
		return ast.InternedValue(n), true
	case "first":
		if n == 0 {
			return nil, true
		}
		sc := env.cache.scope(first) // a partner's, or the group's first element's: no lets of env
		return lookupValue(first.v, path[2:], &sc), true
	case "last":
		if n == 0 {
			return nil, true
		}
		sc := env.cache.scope(last)
		return lookupValue(last.v, path[2:], &sc), true
	}
	return nil, true
}

// value computes a let that names a value, for the element env stands at.
func (env *relEnv) value(l *letSpec) ast.Value {
	el := &env.el
	sc := &env.sc // reads env's lets (at)
	switch {
	case l.cases != nil:
		if i := firstCase(l.cases, el.v, sc); i >= 0 && l.cases[i].message != nil {
			return ast.String(renderPieces(l.cases[i].message, el.v, sc, ""))
		}
	case l.truthy != nil:
		w := &env.cache.walk
		w.Reset(l.truthy.want)
		for _, src := range l.truthy.of {
			if !allHold(src.when, el.v, sc) {
				continue
			}
			v := lookupValue(el.v, src.path, sc)
			if str, ok := v.(ast.String); ok && !mayHoldKeyTable(string(str), w.Want, l.truthy.stop) {
				continue // no key can be written in it: not worth parsing
			}
			if p := payload(v); p != nil {
				w.Visit(p)
			}
		}
		if len(w.Out) > 0 {
			ptrs := make([]string, len(w.Out))
			for i, t := range w.Out {
				ptrs[i] = string(t.Value.(ast.String))
			}
			return ast.String(strings.Join(ptrs, ", "))
		}
	case l.fn != nil:
		return l.fn.value(el.v, sc)
	case l.count != nil:
		s, ok := lookupValue(el.v, l.count.of, sc).(ast.String)
		if !ok {
			return nil
		}
		return ast.InternedValue(strings.Count(string(s), l.count.text))
	case l.inst != nil:
		return env.instants.get(lookupValue(el.v, l.inst, sc))
	case l.tag != nil:
		s, ok := lookupValue(el.v, l.tag.of, sc).(ast.String)
		if !ok || !strings.HasPrefix(string(s), "<"+l.tag.tag) {
			return nil
		}
		i := strings.IndexByte(string(s), '>')
		if i < 0 {
			return nil
		}
		return ast.String(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(string(s[i+1:])), "</"+l.tag.tag+">")))
	}
	return nil
}

func allHold(cs []check, v ast.Value, sc *scope) bool {
	for i := range cs {
		c := &cs[i]
		val := lookupValue(v, c.path, sc)
		if t := c.cond.only; t != nil { // one test on the value: no failure text to build
			if !t(val) {
				return false
			}
			continue
		}
		if !c.cond.passes(val, v, sc) {
			return false
		}
	}
	return true
}

// firstCase returns the index of the first case whose when holds, or -1.
func firstCase(cases []caseSpec, v ast.Value, sc *scope) int {
	for i, c := range cases {
		if allHold(c.when, v, sc) {
			return i
		}
	}
	return -1
}

// walkSteps walks a given path as yamlRule.walk does and calls visit at
// every element it reaches.
// only is nil (every element) or the indexes of the top-level elements to
// visit.
func walkSteps(given []step, v ast.Value, steps []step, sc scope, only []int, visit func(ast.Value, scope)) {
	if len(steps) == 0 {
		visit(v, sc)
		return
	}
	st := &steps[0]
	o := asObject(v)
	if o == nil {
		return
	}
	t := memberAt(o, &st.seg, &sc, sc.row)
	if t == nil {
		return
	}
	next := sc // no JSON Pointers: the relational forms name elements by Target
	next.row = -1
	if st.kind == stepRaw {
		next.inRaw = true
	}
	if !st.each {
		walkSteps(given, t.Value, steps[1:], next, only, visit)
		return
	}
	arr, ok := t.Value.(*ast.Array)
	if !ok {
		return
	}
	top := len(steps) == len(given)
	n := arr.Len()
	if top && only != nil {
		n = len(only)
	}
	el := next // set anew for each element, as in yamlRule.walk
	for k := 0; k < n; k++ {
		i := k
		if top && only != nil {
			if i = only[k]; i >= arr.Len() {
				break
			}
		}
		el.pos = int32(i)
		ev := arr.Elem(i).Value
		if !el.inRaw {
			eo := asObject(ev)
			el.enter(st.kind, top, sc.message != nil, eo, i)
		}
		if len(steps) == 1 {
			visit(ev, el)
			continue
		}
		walkSteps(given, ev, steps[1:], el, nil, visit)
	}
}

// collect returns the rule's elements: those of given that pass where and
// are not left out by unless (in env's buffer).
func (r *Rule) collect(env *relEnv) []elem {
	els := env.els[:0]
	doc := env.cache.doc
	sc := newScope(doc)
	sc.mem = &env.cache.members
	if yamlShortcuts && !docHolds(r.hoisted.where.doc, doc, sc.mem) { // hoist.go
		env.els = els
		return els
	}
	unless, unlessRest := r.unlessOf(doc, sc.mem)
	if h := r.hoisted; yamlShortcuts && h.walk != nil {
		walked := env.cache.walked(h.walk)
		for i := range walked {
			el := &walked[i]
			sc := env.at(el)
			if !allHold(h.walkRest, el.v, sc) {
				continue
			}
			if unless && allHold(unlessRest, el.v, sc) {
				continue
			}
			els = append(els, *el)
		}
		env.els = els
		return els
	}
	only, where := r.only(env.cache)
	walkSteps(r.given, doc, r.given, sc, only, func(v ast.Value, sc scope) {
		el := elemOf(v, &sc)
		at := env.at(&el)
		if !allHold(where, v, at) {
			return
		}
		if unless && allHold(unlessRest, v, at) {
			return
		}
		els = append(els, el)
	})
	env.els = els
	return els
}

// evalRel runs a rule with relational forms over one document.
func (r *Rule) evalRel(doc ast.Object, cache *Cache, hits []Hit) []Hit {
	if cache == nil {
		cache = &Cache{doc: doc}
	}
	env := cache.getEnv(r)
	defer cache.putEnv(env)
	els := r.collect(env)
	if len(els) == 0 {
		return hits
	}
	r.casesFor(env)
	if len(r.rel.group) == 0 {
		rows := cache.rowsOf(r, len(els))
		for i := range els {
			env.atRow(&els[i], i, rows)
			hits = r.report(env, &els[i], hits)
		}
		return hits
	}
	// ranks[i] is element i's position in its group and the index of the group's first
	n, g := len(els), len(r.rel.group)
	ranks := slices.Grow(env.ranks[:0], n)[:n]
	keys := slices.Grow(env.keys[:0], g*n)
	size := slices.Grow(env.size[:0], n)[:n]
	clear(size)
	idx := &env.index
	idx.reset()
	idx.reserve(n)
	defer func() { clear(keys); env.ranks, env.keys, env.size = ranks, keys[:0], size }()
	for i := range els {
		el := &els[i]
		ranks[i] = [2]int{0, i}
		keys = appendValues(keys, el.v, r.rel.group, env.at(el))
		key := keys[i*g : (i+1)*g]
		h, ok := hashValues(key)
		if ok {
			// The first equal key is the group's first element, and the
			// group's size so far is i's rank: stopping there keeps a
			// record whose every call has the same id linear.
			idx.each(h, func(k int) bool {
				if equalValues(key, keys[k*g:(k+1)*g]) {
					ranks[i] = [2]int{size[k], k}
					return false
				}
				return true
			})
		}
		idx.add(h, ok)
		size[ranks[i][1]]++
	}
	for i := range els {
		env.rank, env.first, env.count = ranks[i][0], &els[ranks[i][1]], size[ranks[i][1]]
		hits = r.report(env, &els[i], hits)
	}
	return hits
}

// report applies the rule's cases or asserts to one element.
func (r *Rule) report(env *relEnv, el *elem, hits []Hit) []Hit {
	sc := env.at(el)
	if len(r.rel.cases) == 0 {
		n := len(hits)
		hits = r.asserts(el.v, sc, hits) // where held when the element was collected
		for i := n; i < len(hits); i++ {
			hits[i].Path = "" // the finding names its element (Target), like a Rego rule's
		}
		return hits
	}
	i := r.firstCaseOf(env, el.v, sc)
	if i < 0 {
		return hits
	}
	c := r.rel.cases[i]
	sev := r.Severity
	if c.severity != nil {
		sev = *c.severity
	}
	h := pack.NewHit(r.ID, r.Pack, sev, renderPieces(c.message, el.v, sc, ""))
	h.Target = targetOfScope(sc)
	if c.msgOnly {
		h.Target = targetOfScope(&scope{msgIdx: sc.msgIdx, callIdx: -1, toolIdx: -1, entIdx: -1})
	}
	if c.path != nil {
		h.Path = renderPieces(c.path, el.v, sc, "")
	}
	return append(hits, h)
}
