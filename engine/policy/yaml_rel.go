package policy

import (
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"gopkg.in/yaml.v3"
)

// Relational forms of YAML rules. A plain YAML rule looks at one element at
// a time; the integrity pack's pairing rules relate elements to each other:
// every tool result answers a call of its block, an id is unique within a
// message. Three forms say that, each compiled once into matchers:
//
//   - let: named partner sets. `name: {join: PATH, where: {...}, on: {MINE:
//     THEIRS, ...}, order: before}` gives every element the elements of PATH
//     that pass where, whose THEIRS paths equal the element's MINE paths (by
//     value) and, with order before, whose message comes before the
//     element's. `$name.count` is how many there are, `$name.first.PATH` a
//     path of the first (in document order).
//   - group: a list of paths; the elements (after where) with equal values
//     form a group. `$group.rank` is an element's position in its group (0
//     for the first, in document order), `$group.count` the group's size,
//     `$group.first.PATH` a path of the group's first element.
//   - cases: instead of assert, a list of {when, message}: an element that
//     passes where is reported with the message of the first case whose when
//     holds (a case without when always holds).
//
// Partner sets are built once per document and shared by every rule that
// joins the same PATH, where and THEIRS paths (the index is keyed by the
// hash of the THEIRS values), and only when a rule first asks for them.

// elem is an element a walk reached, with where it stands.
type elem struct {
	v  ast.Value
	sc scope
}

type joinSpec struct {
	name   string
	sig    string // what identifies the partner set and its index
	given  []step
	where  []check
	mine   [][]seg
	theirs [][]seg
	before bool
}

type caseSpec struct {
	when    []check
	message []piece
}

// relSpec holds the relational forms of one rule; nil for a plain rule.
type relSpec struct {
	lets  []*joinSpec
	group [][]seg
	cases []caseSpec
}

type joinYAML struct {
	Join  string    `yaml:"join"`
	Where yaml.Node `yaml:"where"`
	On    yaml.Node `yaml:"on"`
	Order string    `yaml:"order"`
}

type caseYAML struct {
	When    yaml.Node `yaml:"when"`
	Message string    `yaml:"message"`
}

// reservedNames are the contexts a path may start with; a let may not take
// their names.
var reservedNames = []string{"message", "tool", "entry", "document", "group", "line"}

func compileRel(s *yamlRuleSpec) (*relSpec, error) {
	if s.Let.Kind == 0 && len(s.Group) == 0 && len(s.Cases) == 0 {
		return nil, nil
	}
	rel := &relSpec{}
	if s.Let.Kind != 0 {
		if s.Let.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("let: want a map of name: {join, where, on, order}")
		}
		for i := 0; i+1 < len(s.Let.Content); i += 2 {
			name := s.Let.Content[i].Value
			for _, r := range reservedNames {
				if name == r {
					return nil, fmt.Errorf("let: %s is a reserved name", name)
				}
			}
			var jy joinYAML
			if err := s.Let.Content[i+1].Decode(&jy); err != nil {
				return nil, fmt.Errorf("let %s: %v", name, err)
			}
			j, err := compileJoin(name, jy)
			if err != nil {
				return nil, fmt.Errorf("let %s: %v", name, err)
			}
			rel.lets = append(rel.lets, j)
		}
	}
	for _, g := range s.Group {
		rel.group = append(rel.group, parsePath(g))
	}
	for i, c := range s.Cases {
		when, err := compileChecks(&c.When)
		if err != nil {
			return nil, fmt.Errorf("cases[%d]: when: %v", i, err)
		}
		if c.Message == "" {
			return nil, fmt.Errorf("cases[%d]: a case needs a message", i)
		}
		rel.cases = append(rel.cases, caseSpec{when: when, message: parseTemplate(c.Message)})
	}
	return rel, nil
}

func compileJoin(name string, jy joinYAML) (*joinSpec, error) {
	j := &joinSpec{name: name}
	var err error
	if j.given, err = parseGiven(jy.Join); err != nil || len(j.given) == 0 {
		return nil, fmt.Errorf("join: want a path such as messages[*] (%v)", err)
	}
	if j.where, err = compileChecks(&jy.Where); err != nil {
		return nil, fmt.Errorf("where: %v", err)
	}
	for _, c := range j.where {
		if len(c.path) > 0 && strings.HasPrefix(c.path[0].name, "$") && !isContext(c.path[0].name) {
			return nil, fmt.Errorf("where: %s: a partner's condition reads the partner, not the element's sets", c.text)
		}
	}
	var theirs []string
	if jy.On.Kind != 0 {
		if jy.On.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("on: want a map of element path: partner path")
		}
		for i := 0; i+1 < len(jy.On.Content); i += 2 {
			j.mine = append(j.mine, parsePath(jy.On.Content[i].Value))
			j.theirs = append(j.theirs, parsePath(jy.On.Content[i+1].Value))
			theirs = append(theirs, jy.On.Content[i+1].Value)
		}
	}
	switch jy.Order {
	case "":
	case "before":
		j.before = true
	default:
		return nil, fmt.Errorf("order: want before or nothing")
	}
	var where []string
	for _, c := range j.where {
		where = append(where, c.text+"="+fmt.Sprint(c.cond.descs()))
	}
	j.sig = jy.Join + "|" + strings.Join(where, ",") + "|" + strings.Join(theirs, ",")
	return j, nil
}

func isContext(name string) bool {
	switch name {
	case "$message", "$tool", "$entry", "$document":
		return true
	}
	return false
}

func (c condition) descs() []string {
	out := make([]string, 0, len(c.tests)+1)
	if c.optional {
		out = append(out, "optional")
	}
	for _, t := range c.tests {
		out = append(out, t.desc)
	}
	return out
}

// relCache holds the partner sets of one document.
type relCache struct {
	doc  ast.Object
	sets map[string]*partnerSet
}

type partnerSet struct {
	els   []elem
	byKey map[uint64][]int32
}

// relEnv is what the relational paths of one rule read while it looks at
// one element.
type relEnv struct {
	r     *yamlRule
	cache *relCache
	el    elem
	rank  int
	count int
	first elem
}

func (c *relCache) set(j *joinSpec) *partnerSet {
	if ps, ok := c.sets[j.sig]; ok {
		return ps
	}
	ps := &partnerSet{}
	walkSteps(j.given, c.doc, j.given, scope{doc: c.doc, msgIdx: -1, callIdx: -1, toolIdx: -1, entIdx: -1}, func(v ast.Value, sc scope) {
		for _, w := range j.where {
			val, _ := resolve(v, w.path, sc)
			if ok, _ := w.cond.holds(val, v, sc); !ok {
				return
			}
		}
		ps.els = append(ps.els, elem{v: v, sc: sc})
	})
	if len(j.theirs) > 0 {
		ps.byKey = make(map[uint64][]int32, len(ps.els))
		for i, p := range ps.els {
			if h, ok := keyHash(p.v, j.theirs, p.sc); ok {
				ps.byKey[h] = append(ps.byKey[h], int32(i))
			}
		}
	}
	if c.sets == nil {
		c.sets = map[string]*partnerSet{}
	}
	c.sets[j.sig] = ps
	return ps
}

// keyHash hashes the values of paths; false when one is absent.
func keyHash(v ast.Value, paths [][]seg, sc scope) (uint64, bool) {
	var h uint64 = 17
	for _, p := range paths {
		val, _ := resolve(v, p, sc)
		if val == nil {
			return 0, false
		}
		h = h*31 + uint64(val.Hash())
	}
	return h, true
}

// sameKey reports whether a's paths pa and b's paths pb hold equal values.
func sameKey(a elem, pa [][]seg, b elem, pb [][]seg) bool {
	for i := range pa {
		x, _ := resolve(a.v, pa[i], a.sc)
		y, _ := resolve(b.v, pb[i], b.sc)
		if x == nil || y == nil || ast.Compare(x, y) != 0 {
			return false
		}
	}
	return true
}

// partners counts the element's partners in j and returns the first.
func (env *relEnv) partners(j *joinSpec) (int, elem) {
	ps := env.cache.set(j)
	n, first := 0, elem{}
	consider := func(p elem) {
		if j.before && !(p.sc.msgIdx < env.el.sc.msgIdx) {
			return
		}
		if n == 0 {
			first = p
		}
		n++
	}
	if len(j.theirs) == 0 {
		for _, p := range ps.els {
			consider(p)
		}
		return n, first
	}
	h, ok := keyHash(env.el.v, j.mine, env.el.sc)
	if !ok {
		return 0, first
	}
	for _, i := range ps.byKey[h] {
		if p := ps.els[i]; sameKey(env.el, j.mine, p, j.theirs) {
			consider(p)
		}
	}
	return n, first
}

// virtual resolves a path that starts with $group or the name of a let; ok
// is false for any other path.
func (env *relEnv) virtual(path []seg) (ast.Value, bool) {
	name := strings.TrimPrefix(path[0].name, "$")
	if name == path[0].name {
		return nil, false
	}
	var n int
	var first elem
	switch {
	case name == "group" && len(env.r.rel.group) > 0:
		n, first = env.count, env.first
		if len(path) > 1 && path[1].name == "rank" {
			return ast.InternedValue(env.rank), true
		}
	default:
		var j *joinSpec
		for _, l := range env.r.rel.lets {
			if l.name == name {
				j = l
			}
		}
		if j == nil {
			return nil, false
		}
		n, first = env.partners(j)
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
		v, _ := resolve(first.v, path[2:], first.sc)
		return v, true
	}
	return nil, true
}

// walkSteps walks a given path as yamlRule.walk does and calls visit at
// every element it reaches.
func walkSteps(given []step, v ast.Value, steps []step, sc scope, visit func(ast.Value, scope)) {
	if len(steps) == 0 {
		visit(v, sc)
		return
	}
	st := steps[0]
	o, ok := v.(ast.Object)
	if !ok {
		return
	}
	t := o.Get(st.key)
	if t == nil {
		return
	}
	next := sc
	switch {
	case sc.inRaw:
		next.ptr = sc.ptr + "/" + escapePointer(st.field)
	case st.field == "raw":
		next.inRaw = true
	}
	if !st.each {
		walkSteps(given, t.Value, steps[1:], next, visit)
		return
	}
	arr, ok := t.Value.(*ast.Array)
	if !ok {
		return
	}
	top := len(steps) == len(given)
	for i := 0; i < arr.Len(); i++ {
		el := next
		ev := arr.Elem(i).Value
		if !el.inRaw {
			eo, _ := ev.(ast.Object)
			switch {
			case st.field == "messages" && top:
				el.message, el.msgIdx = eo, i
			case st.field == "tools" && top:
				el.tool, el.toolIdx = eo, i
			case st.field == "entries" && top:
				el.entry, el.entIdx = eo, i
			case st.field == "tool_calls" && sc.message != nil:
				el.callIdx = i
			}
		}
		walkSteps(given, ev, steps[1:], el, visit)
	}
}

// evalRel runs a rule with relational forms over one document.
func (r *yamlRule) evalRel(doc ast.Object, cache *relCache, hits []Hit) []Hit {
	if cache == nil {
		cache = &relCache{doc: doc}
	}
	env := &relEnv{r: r, cache: cache}
	var els []elem
	walkSteps(r.given, doc, r.given, scope{doc: doc, msgIdx: -1, callIdx: -1, toolIdx: -1, entIdx: -1}, func(v ast.Value, sc scope) {
		env.el = elem{v: v, sc: sc}
		sc.rel = env
		for _, w := range r.where {
			val, _ := resolve(v, w.path, sc)
			if ok, _ := w.cond.holds(val, v, sc); !ok {
				return
			}
		}
		els = append(els, env.el)
	})
	if len(els) == 0 {
		return hits
	}
	if len(r.rel.group) > 0 {
		// ranks[i] is element i's position in its group and the index of the group's first
		ranks := make([][2]int, len(els))
		byKey := make(map[uint64][]int32, len(els))
		size := make(map[int]int, len(els))
		for i, el := range els {
			ranks[i] = [2]int{0, i}
			if h, ok := keyHash(el.v, r.rel.group, el.sc); ok {
				for _, k := range byKey[h] {
					if sameKey(el, r.rel.group, els[k], r.rel.group) {
						if ranks[i][0] == 0 {
							ranks[i][1] = int(k)
						}
						ranks[i][0]++
					}
				}
				byKey[h] = append(byKey[h], int32(i))
			}
			size[ranks[i][1]]++
		}
		for i := range els {
			env.el = els[i]
			env.rank, env.first, env.count = ranks[i][0], els[ranks[i][1]], size[ranks[i][1]]
			hits = r.report(env, hits)
		}
		return hits
	}
	for i := range els {
		env.el = els[i]
		hits = r.report(env, hits)
	}
	return hits
}

// report applies the rule's cases or asserts to the element env stands at.
func (r *yamlRule) report(env *relEnv, hits []Hit) []Hit {
	v, sc := env.el.v, env.el.sc
	sc.rel = env
	if len(r.rel.cases) == 0 {
		n := len(hits)
		hits = r.check(v, sc, hits)
		for i := n; i < len(hits); i++ {
			hits[i].Path = "" // the finding names its element (Target), like a Rego rule's
		}
		return hits
	}
next:
	for _, c := range r.rel.cases {
		for _, w := range c.when {
			val, _ := resolve(v, w.path, sc)
			if ok, _ := w.cond.holds(val, v, sc); !ok {
				continue next
			}
		}
		h := newHit(r.ID, r.Pack, r.Severity, renderPieces(c.message, v, sc, ""))
		h.Target = targetOfScope(sc)
		return append(hits, h)
	}
	return hits
}
