package policy

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"gopkg.in/yaml.v3"

	"github.com/chatlint/chatlint/engine/finding"
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
//     `join: rule:ID` takes the elements of rule ID of the same file instead
//     (its given and where), and its where may read that rule's lets;
//     `differ: {MINE: THEIRS}` leaves out a partner whose THEIRS equals the
//     element's MINE; `order: after` keeps the partners after the element.
//     Besides joins, a let can name a value: `{cases: [{when, text}]}` (the
//     text of the first case whose when holds; a case without text, or none
//     holding, leaves the value absent), `{truthy_keys: [KEY...], of: [PATH
//     or {path, when}...]}` (the JSON Pointers, joined by ", ", of the
//     members with one of the keys, any case, any depth, and a truthy value,
//     in the JSON payload of each PATH: an object or array, or a string
//     holding one; absent when there is none) and `{tag_body: PATH, tag:
//     NAME}` (the trimmed text between <NAME ...> and </NAME> of a text that
//     starts with <NAME). `$name` reads the value.
//   - cases: instead of assert, a list of {when, message, severity}: an
//     element that passes where is reported with the message (and severity,
//     if given) of the first case whose when holds (a case without when
//     always holds); no finding when none holds.
//   - unless: conditions that, when all hold, leave the element out.
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
	sig          string // what identifies the partner set and its index
	given        []step
	rule         string    // rule:ID, the rule whose elements are the partners
	ruleRef      *yamlRule // rule, once the file is compiled
	where        []check
	mine, theirs [][]seg
	differMine   [][]seg
	differTheirs [][]seg
	order        int // -1 before the element, 1 after, 0 anywhere
	role         string
}

type truthySpec struct {
	want []string // lower-cased keys
	of   []truthySource
	stop *[256]bool // keyStops(want)
}

type truthySource struct {
	path []seg
	when []check
}

type tagSpec struct {
	of  []seg
	tag string
}

type occurrencesSpec struct {
	of   []seg
	text string
}

// letSpec is one named let: a join, or a value (cases, truthy_keys, tag_body).
type letSpec struct {
	name   string
	join   *joinSpec
	cases  []caseSpec
	truthy *truthySpec
	tag    *tagSpec
	count  *occurrencesSpec
}

type caseSpec struct {
	when     []check
	message  []piece // nil in a let case without text
	severity *finding.Severity
	path     []piece // the JSON Pointer the finding names, when given
}

// relSpec holds the relational forms of one rule; nil for a plain rule.
type relSpec struct {
	lets   []*letSpec
	group  [][]seg
	cases  []caseSpec
	unless []check
	role   string // see roleOf
}

// roleOf returns the role a where requires of the messages a given path
// walks (role: X for messages[*], $message.role: X below it), or "". The
// walk then visits only the messages of that role, from an index of the
// roles built once per document, instead of reading every message's role
// once per rule. The where is still checked in full.
func roleOf(given []step, where []check) string {
	if len(given) == 0 || given[0].field != "messages" || !given[0].each {
		return ""
	}
	for _, c := range where {
		var ok bool
		switch len(given) {
		case 1:
			ok = len(c.path) == 1 && c.path[0].name == "role"
		default:
			ok = len(c.path) == 2 && c.path[0].name == "$message" && c.path[1].name == "role"
		}
		if s, isStr := c.cond.literal.(ast.String); ok && isStr && !c.cond.optional {
			return string(s)
		}
	}
	return ""
}

type letYAML struct {
	Join       string      `yaml:"join"`
	Where      yaml.Node   `yaml:"where"`
	On         yaml.Node   `yaml:"on"`
	Differ     yaml.Node   `yaml:"differ"`
	Order      string      `yaml:"order"`
	Cases      []caseYAML  `yaml:"cases"`
	TruthyKeys []string    `yaml:"truthy_keys"`
	Of         []yaml.Node `yaml:"of"`
	TagBody    string      `yaml:"tag_body"`
	Tag        string      `yaml:"tag"`
	Count      string      `yaml:"occurrences"`
	In         string      `yaml:"in"`
}

type caseYAML struct {
	When     yaml.Node `yaml:"when"`
	Message  string    `yaml:"message"`
	Text     string    `yaml:"text"`
	Severity string    `yaml:"severity"`
	Path     string    `yaml:"path"`
}

// reservedNames are the contexts a path may start with; a let may not take
// their names.
var reservedNames = []string{"message", "tool", "entry", "document", "group", "line", "self", "index"}

func compileRel(s *yamlRuleSpec) (*relSpec, error) {
	if s.Let.Kind == 0 && len(s.Group) == 0 && len(s.Cases) == 0 && s.Unless.Kind == 0 {
		return nil, nil
	}
	rel := &relSpec{}
	if s.Let.Kind != 0 {
		if s.Let.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("let: want a map of name: {join, where, on, ...}")
		}
		for i := 0; i+1 < len(s.Let.Content); i += 2 {
			name := s.Let.Content[i].Value
			if slices.Contains(reservedNames, name) {
				return nil, fmt.Errorf("let: %s is a reserved name", name)
			}
			var ly letYAML
			if err := s.Let.Content[i+1].Decode(&ly); err != nil {
				return nil, fmt.Errorf("let %s: %v", name, err)
			}
			l, err := compileLet(name, ly)
			if err != nil {
				return nil, fmt.Errorf("let %s: %v", name, err)
			}
			rel.lets = append(rel.lets, l)
		}
	}
	for _, g := range s.Group {
		rel.group = append(rel.group, parsePath(g))
	}
	var err error
	if rel.cases, err = compileCases(s.Cases, "message"); err != nil {
		return nil, err
	}
	if rel.unless, err = compileChecks(&s.Unless); err != nil {
		return nil, fmt.Errorf("unless: %v", err)
	}
	return rel, nil
}

func compileCases(cs []caseYAML, text string) ([]caseSpec, error) {
	var out []caseSpec
	for i, c := range cs {
		when, err := compileChecks(&c.When)
		if err != nil {
			return nil, fmt.Errorf("cases[%d]: when: %v", i, err)
		}
		cs := caseSpec{when: when}
		switch text {
		case "message":
			if c.Message == "" {
				return nil, fmt.Errorf("cases[%d]: a case needs a message", i)
			}
			cs.message = parseTemplate(c.Message)
		default:
			if c.Text != "" {
				cs.message = parseTemplate(c.Text)
			}
		}
		if c.Path != "" {
			cs.path = parseTemplate(c.Path)
		}
		if c.Severity != "" {
			sev, err := finding.ParseSeverity(c.Severity)
			if err != nil {
				return nil, fmt.Errorf("cases[%d]: %v", i, err)
			}
			cs.severity = &sev
		}
		out = append(out, cs)
	}
	return out, nil
}

func compileLet(name string, ly letYAML) (*letSpec, error) {
	l := &letSpec{name: name}
	kinds := 0
	if ly.Join != "" {
		kinds++
		j, err := compileJoin(ly)
		if err != nil {
			return nil, err
		}
		l.join = j
	}
	if len(ly.Cases) > 0 {
		kinds++
		cs, err := compileCases(ly.Cases, "text")
		if err != nil {
			return nil, err
		}
		l.cases = cs
	}
	if len(ly.TruthyKeys) > 0 {
		kinds++
		t := &truthySpec{}
		for _, k := range ly.TruthyKeys {
			t.want = append(t.want, strings.ToLower(k))
		}
		for i := range ly.Of {
			n := &ly.Of[i]
			if n.Kind == yaml.ScalarNode {
				t.of = append(t.of, truthySource{path: parsePath(n.Value)})
				continue
			}
			var src struct {
				Path string    `yaml:"path"`
				When yaml.Node `yaml:"when"`
			}
			if err := n.Decode(&src); err != nil || src.Path == "" {
				return nil, fmt.Errorf("of[%d]: want a path or {path, when}", i)
			}
			when, err := compileChecks(&src.When)
			if err != nil {
				return nil, fmt.Errorf("of[%d]: when: %v", i, err)
			}
			t.of = append(t.of, truthySource{path: parsePath(src.Path), when: when})
		}
		if len(t.of) == 0 {
			return nil, fmt.Errorf("truthy_keys needs of: the paths whose payload is read")
		}
		t.stop = keyStops(t.want)
		l.truthy = t
	}
	if ly.TagBody != "" {
		kinds++
		if ly.Tag == "" {
			return nil, fmt.Errorf("tag_body needs tag: the tag name")
		}
		l.tag = &tagSpec{of: parsePath(ly.TagBody), tag: ly.Tag}
	}
	if ly.Count != "" {
		kinds++
		if ly.In == "" {
			return nil, fmt.Errorf("occurrences needs in: the path of the text")
		}
		l.count = &occurrencesSpec{of: parsePath(ly.In), text: ly.Count}
	}
	if kinds != 1 {
		return nil, fmt.Errorf("want exactly one of join, cases, truthy_keys, tag_body or occurrences")
	}
	return l, nil
}

func compileJoin(jy letYAML) (*joinSpec, error) {
	j := &joinSpec{}
	var err error
	if id, ok := strings.CutPrefix(jy.Join, "rule:"); ok {
		j.rule = id
	} else if j.given, err = parseGiven(jy.Join); err != nil || len(j.given) == 0 {
		return nil, fmt.Errorf("join: want a path such as messages[*] or rule:ID (%v)", err)
	}
	if j.where, err = compileChecks(&jy.Where); err != nil {
		return nil, fmt.Errorf("where: %v", err)
	}
	if j.rule == "" {
		for _, c := range j.where {
			if len(c.path) > 0 && strings.HasPrefix(c.path[0].name, "$") && !isContext(c.path[0].name) {
				return nil, fmt.Errorf("where: %s: the partners of a path join have no lets (join rule:ID to read a rule's)", c.text)
			}
		}
	}
	var theirs []string
	if j.mine, j.theirs, theirs, err = pathPairs(&jy.On, "on"); err != nil {
		return nil, err
	}
	var differ []string
	if j.differMine, j.differTheirs, differ, err = pathPairs(&jy.Differ, "differ"); err != nil {
		return nil, err
	}
	switch jy.Order {
	case "":
	case "before":
		j.order = -1
	case "after":
		j.order = 1
	default:
		return nil, fmt.Errorf("order: want before, after or nothing")
	}
	var where []string
	for _, c := range j.where {
		where = append(where, c.text+"="+fmt.Sprint(c.cond.descs()))
	}
	j.role = roleOf(j.given, j.where)
	j.sig = jy.Join + "|" + strings.Join(where, ",") + "|" + strings.Join(theirs, ",") + "|" + strings.Join(differ, ",")
	return j, nil
}

// pathPairs reads a map of element path: partner path.
func pathPairs(n *yaml.Node, what string) (mine, theirs [][]seg, texts []string, err error) {
	if n.Kind == 0 {
		return nil, nil, nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, nil, nil, fmt.Errorf("%s: want a map of element path: partner path", what)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		mine = append(mine, parsePath(n.Content[i].Value))
		theirs = append(theirs, parsePath(n.Content[i+1].Value))
		texts = append(texts, n.Content[i+1].Value)
	}
	return mine, theirs, texts, nil
}

// only returns the messages of role, or nil (all) when role is "".
func (c *relCache) only(role string) []int {
	if role == "" {
		return nil
	}
	return c.messagesOf(role)
}

// linkRules resolves the rule:ID joins and the part_of entries of one
// file's rules.
func linkRules(rules []*yamlRule) error {
	byID := map[string]*yamlRule{}
	for _, r := range rules {
		if r.partOf == "" {
			byID[r.ID] = r
		}
	}
	for _, r := range rules {
		if r.partOf == "" {
			continue
		}
		main := byID[r.partOf]
		if main == nil {
			return fmt.Errorf("part_of: no rule %s in this file", r.partOf)
		}
		src := r.Source
		r.Rule = main.Rule
		r.Source = src
	}
	for _, r := range rules {
		if r.rel == nil {
			continue
		}
		for _, l := range r.rel.lets {
			if l.join == nil || l.join.rule == "" {
				continue
			}
			other := byID[l.join.rule]
			if other == nil || other.rel == nil {
				return fmt.Errorf("rule %s: let %s: join: no rule %s with lets in this file", r.ID, l.name, l.join.rule)
			}
			l.join.ruleRef = other
		}
	}
	return nil
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

// relCache holds the partner sets of one document. An Evaluator keeps one
// and resets it per document, so that the sets' memory is reused.
type relCache struct {
	doc     ast.Object
	sets    map[string]*partnerSet
	free    []*partnerSet
	envFree []*relEnv
	walk    truthyWalk // truthy_keys' walker, its buffers reused
	// roles[i] is the role of message i (built on first use); byRole the
	// indexes of the messages of each role asked for
	roles     []string
	rolesDone bool
	byRole    map[string]*roleIndex
	gen       int // counts documents: a roleIndex of another gen is stale
}

type roleIndex struct {
	gen int
	ix  []int
}

var keyRole = ast.StringTerm("role")

// messagesOf returns the indexes of the document's messages whose role is
// role.
func (c *relCache) messagesOf(role string) []int {
	ri := c.byRole[role]
	if ri != nil && ri.gen == c.gen {
		return ri.ix
	}
	if !c.rolesDone {
		c.rolesDone = true
		c.roles = c.roles[:0]
		if t := c.doc.Get(keyMessages); t != nil {
			if arr, ok := t.Value.(*ast.Array); ok {
				for i := 0; i < arr.Len(); i++ {
					var r string
					if o, ok := arr.Elem(i).Value.(ast.Object); ok {
						if rt := o.Get(keyRole); rt != nil {
							s, _ := rt.Value.(ast.String)
							r = string(s)
						}
					}
					c.roles = append(c.roles, r)
				}
			}
		}
	}
	if ri == nil {
		if c.byRole == nil {
			c.byRole = map[string]*roleIndex{}
		}
		ri = &roleIndex{ix: []int{}} // never nil: nil means every message
		c.byRole[role] = ri
	}
	ri.gen, ri.ix = c.gen, ri.ix[:0]
	for i, r := range c.roles {
		if r == role {
			ri.ix = append(ri.ix, i)
		}
	}
	return ri.ix
}

var keyMessages = ast.StringTerm("messages")

// reset empties the cache for the next document.
func (c *relCache) reset(doc ast.Object) {
	c.doc = doc
	c.rolesDone = false
	c.gen++
	for k, ps := range c.sets {
		clear(ps.els) // drop references to the document
		clear(ps.keys)
		clear(ps.differ)
		ps.els, ps.keys, ps.differ = ps.els[:0], ps.keys[:0], ps.differ[:0]
		ps.index.reset()
		c.free = append(c.free, ps)
		delete(c.sets, k)
	}
}

type partnerSet struct {
	els    []elem
	keys   []ast.Value // the theirs values of each partner, len(theirs) per partner
	differ []ast.Value // the differ values of each partner, len(differTheirs) per partner
	index  keyIndex
}

// keyIndex finds the positions whose key has a given hash: a scan of the
// hashes for the few elements of most documents, a map beyond that.
type keyIndex struct {
	hashes []uint64
	ok     []bool // the key has no absent value
	byKey  map[uint64][]int32
}

const keyIndexScan = 64

func (x *keyIndex) reset() {
	x.hashes, x.ok, x.byKey = x.hashes[:0], x.ok[:0], nil
}

func (x *keyIndex) add(h uint64, ok bool) {
	x.hashes = append(x.hashes, h)
	x.ok = append(x.ok, ok)
	if x.byKey != nil || len(x.hashes) > keyIndexScan {
		if x.byKey == nil {
			x.byKey = make(map[uint64][]int32, 2*keyIndexScan)
			for i, h := range x.hashes[:len(x.hashes)-1] {
				if x.ok[i] {
					x.byKey[h] = append(x.byKey[h], int32(i))
				}
			}
		}
		if ok {
			x.byKey[h] = append(x.byKey[h], int32(len(x.hashes)-1))
		}
	}
}

// each calls f with every position whose key hash is h, in order, until f
// returns false.
func (x *keyIndex) each(h uint64, f func(int) bool) {
	if x.byKey != nil {
		for _, i := range x.byKey[h] {
			if !f(int(i)) {
				return
			}
		}
		return
	}
	for i, g := range x.hashes {
		if g == h && x.ok[i] && !f(i) {
			return
		}
	}
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
	// memo holds the lets computed for the element env stands at: a let is
	// read by several conditions and the message.
	memo []letMemo
	// buffers reused from document to document
	els   []elem
	ranks [][2]int
	keys  []ast.Value
	size  []int
	index keyIndex
}

type letMemo struct {
	done  bool
	value ast.Value
	n     int
	first elem
}

func newScope(doc ast.Object) scope {
	return scope{doc: doc, msgIdx: -1, callIdx: -1, toolIdx: -1, entIdx: -1}
}

// at returns el's scope reading env's lets, with env standing at el.
func (env *relEnv) at(el elem) scope {
	if el.v != env.el.v || el.sc.msgIdx != env.el.sc.msgIdx || el.sc.callIdx != env.el.sc.callIdx {
		clear(env.memo)
	}
	env.el = el
	sc := el.sc
	sc.rel = env
	return sc
}

// getEnv returns an environment for rule r from the cache's free list;
// putEnv gives it back when the rule is done with the document.
func (c *relCache) getEnv(r *yamlRule) *relEnv {
	var env *relEnv
	if n := len(c.envFree); n > 0 {
		env, c.envFree = c.envFree[n-1], c.envFree[:n-1]
	} else {
		env = &relEnv{}
	}
	env.r, env.cache, env.el = r, c, elem{}
	env.memo = slices.Grow(env.memo[:0], len(r.rel.lets))[:len(r.rel.lets)]
	clear(env.memo)
	return env
}

func (c *relCache) putEnv(env *relEnv) {
	clear(env.els) // drop references to the document
	env.els = env.els[:0]
	env.first, env.el = elem{}, elem{}
	c.envFree = append(c.envFree, env)
}

func (c *relCache) set(j *joinSpec) *partnerSet {
	if ps, ok := c.sets[j.sig]; ok {
		return ps
	}
	var ps *partnerSet
	if n := len(c.free); n > 0 {
		ps, c.free = c.free[n-1], c.free[:n-1]
	} else {
		ps = &partnerSet{}
	}
	add := func(v ast.Value, sc scope) {
		if !allHold(j.where, v, sc) {
			return
		}
		ps.keys = appendValues(ps.keys, v, j.theirs, sc)
		ps.differ = appendValues(ps.differ, v, j.differTheirs, sc)
		sc.rel = nil
		ps.els = append(ps.els, elem{v: v, sc: sc})
	}
	if j.ruleRef != nil {
		env := c.getEnv(j.ruleRef)
		for _, el := range j.ruleRef.collect(env) {
			add(el.v, env.at(el))
		}
		c.putEnv(env)
	} else {
		walkSteps(j.given, c.doc, j.given, newScope(c.doc), c.only(j.role), add)
	}
	if k := len(j.theirs); k > 0 {
		for i := range ps.els {
			ps.index.add(hashValues(ps.keys[i*k : (i+1)*k]))
		}
	}
	if c.sets == nil {
		c.sets = map[string]*partnerSet{}
	}
	c.sets[j.sig] = ps
	return ps
}

// appendValues appends the values of paths on v to buf.
func appendValues(buf []ast.Value, v ast.Value, paths [][]seg, sc scope) []ast.Value {
	for _, p := range paths {
		buf = append(buf, lookupValue(v, p, sc))
	}
	return buf
}

// lookupValue is resolve without the JSON Pointer, which the relational
// forms never need: resolve builds it by concatenation.
func lookupValue(v ast.Value, path []seg, sc scope) ast.Value {
	if len(path) > 0 {
		if sc.rel != nil {
			if x, ok := sc.rel.virtual(path); ok {
				return x
			}
		}
		if path[0].name == "$index" {
			return ast.InternedValue(sc.pos)
		}
		head := path[0].name
		alias := strings.TrimPrefix(head, "$")
		o, _ := v.(ast.Object)
		if head != alias || o == nil || o.Get(path[0].key) == nil {
			if ctx := sc.context(alias); ctx != nil {
				v, path = ctx, path[1:]
			}
		}
	}
	for _, s := range path {
		switch c := v.(type) {
		case ast.Object:
			t := c.Get(s.key)
			if t == nil {
				return nil
			}
			v = t.Value
		case *ast.Array:
			if s.index < 0 || s.index >= c.Len() {
				return nil
			}
			v = c.Elem(s.index).Value
		default:
			return nil
		}
	}
	return v
}

// hashValues hashes a key; false when a value is absent.
func hashValues(vs []ast.Value) (uint64, bool) {
	var h uint64 = 17
	for _, v := range vs {
		if v == nil {
			return 0, false
		}
		h = h*31 + uint64(v.Hash())
	}
	return h, true
}

func equalValues(a, b []ast.Value) bool {
	for i := range a {
		if a[i] == nil || b[i] == nil || ast.Compare(a[i], b[i]) != 0 {
			return false
		}
	}
	return true
}

// partners counts the element's partners in j and returns the first.
func (env *relEnv) partners(j *joinSpec) (int, elem) {
	ps := env.cache.set(j)
	el := env.el
	sc := el.sc
	sc.rel = env
	var buf [8]ast.Value
	var differ []ast.Value
	if d := len(j.differMine); d > 0 {
		differ = appendValues(buf[4:4:8], el.v, j.differMine, sc)
	}
	n, first := 0, elem{}
	consider := func(i int) {
		p := &ps.els[i]
		if (j.order < 0 && p.sc.msgIdx >= el.sc.msgIdx) || (j.order > 0 && p.sc.msgIdx <= el.sc.msgIdx) {
			return
		}
		if d := len(differ); d > 0 && equalValues(differ, ps.differ[i*d:(i+1)*d]) {
			return
		}
		if n == 0 {
			first = *p
		}
		n++
	}
	k := len(j.theirs)
	if k == 0 {
		for i := range ps.els {
			consider(i)
		}
		return n, first
	}
	key := appendValues(buf[:0:4], el.v, j.mine, sc)
	h, ok := hashValues(key)
	if !ok {
		return 0, first
	}
	ps.index.each(h, func(i int) bool {
		if equalValues(key, ps.keys[i*k:(i+1)*k]) {
			consider(i)
		}
		return true
	})
	return n, first
}

// virtual resolves a path that starts with $group or the name of a let; ok
// is false for any other path.
func (env *relEnv) virtual(path []seg) (ast.Value, bool) {
	name, ok := strings.CutPrefix(path[0].name, "$")
	if !ok {
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
		li := -1
		for i, x := range env.r.rel.lets {
			if x.name == name {
				li = i
			}
		}
		if li < 0 {
			return nil, false
		}
		l, m := env.r.rel.lets[li], &env.memo[li]
		if !m.done {
			if l.join == nil {
				m.value = env.value(l)
			} else {
				m.n, m.first = env.partners(l.join)
			}
			m.done = true
		}
		if l.join == nil {
			v := m.value
			if v != nil && len(path) > 1 {
				v = lookupValue(v, path[1:], scope{})
			}
			return v, true
		}
		n, first = m.n, m.first
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
		return lookupValue(first.v, path[2:], first.sc), true
	}
	return nil, true
}

// value computes a let that names a value, for the element env stands at.
func (env *relEnv) value(l *letSpec) ast.Value {
	el := env.el
	sc := el.sc
	sc.rel = env
	switch {
	case l.cases != nil:
		if i := firstCase(l.cases, el.v, sc); i >= 0 && l.cases[i].message != nil {
			return ast.String(renderPieces(l.cases[i].message, el.v, sc, ""))
		}
	case l.truthy != nil:
		w := &env.cache.walk
		w.want, w.path, w.out = l.truthy.want, w.path[:0], w.out[:0]
		for _, src := range l.truthy.of {
			if !allHold(src.when, el.v, sc) {
				continue
			}
			v := lookupValue(el.v, src.path, sc)
			if str, ok := v.(ast.String); ok && !mayHoldKeyTable(string(str), w.want, l.truthy.stop) {
				continue // no key can be written in it: not worth parsing
			}
			if p := payload(v); p != nil {
				w.visit(p)
			}
		}
		if len(w.out) > 0 {
			ptrs := make([]string, len(w.out))
			for i, t := range w.out {
				ptrs[i] = string(t.Value.(ast.String))
			}
			return ast.String(strings.Join(ptrs, ", "))
		}
	case l.count != nil:
		s, ok := lookupValue(el.v, l.count.of, sc).(ast.String)
		if !ok {
			return nil
		}
		return ast.InternedValue(strings.Count(string(s), l.count.text))
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

// payload is v when it is an object or array, the value a string holds when
// its trimmed text is a JSON object or array, else nil (as chatlint.json_payload).
func payload(v ast.Value) ast.Value {
	if v == nil {
		return nil
	}
	t, _ := jsonPayload(rego.BuiltinContext{}, ast.NewTerm(v))
	if t == nil {
		return nil
	}
	return t.Value
}

func allHold(cs []check, v ast.Value, sc scope) bool {
	for _, c := range cs {
		val := lookupValue(v, c.path, sc)
		if ok, _ := c.cond.holds(val, v, sc); !ok {
			return false
		}
	}
	return true
}

// firstCase returns the index of the first case whose when holds, or -1.
func firstCase(cases []caseSpec, v ast.Value, sc scope) int {
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
	st := steps[0]
	o, ok := v.(ast.Object)
	if !ok {
		return
	}
	t := o.Get(st.key)
	if t == nil {
		return
	}
	next := sc // no JSON Pointers: the relational forms name elements by Target
	if st.field == "raw" {
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
	for k := 0; k < n; k++ {
		i := k
		if top && only != nil {
			if i = only[k]; i >= arr.Len() {
				break
			}
		}
		el := next
		el.pos = i
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
		walkSteps(given, ev, steps[1:], el, nil, visit)
	}
}

// collect returns the rule's elements: those of given that pass where and
// are not left out by unless (in env's buffer).
func (r *yamlRule) collect(env *relEnv) []elem {
	els := env.els[:0]
	doc := env.cache.doc
	walkSteps(r.given, doc, r.given, newScope(doc), env.cache.only(r.rel.role), func(v ast.Value, sc scope) {
		sc = env.at(elem{v: v, sc: sc})
		if !allHold(r.where, v, sc) {
			return
		}
		if len(r.rel.unless) > 0 && allHold(r.rel.unless, v, sc) {
			return
		}
		sc.rel = nil
		els = append(els, elem{v: v, sc: sc})
	})
	env.els = els
	return els
}

// evalRel runs a rule with relational forms over one document.
func (r *yamlRule) evalRel(doc ast.Object, cache *relCache, hits []Hit) []Hit {
	if cache == nil {
		cache = &relCache{doc: doc}
	}
	env := cache.getEnv(r)
	defer cache.putEnv(env)
	els := r.collect(env)
	if len(els) == 0 {
		return hits
	}
	if len(r.rel.group) == 0 {
		for _, el := range els {
			hits = r.report(env, el, hits)
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
	defer func() { clear(keys); env.ranks, env.keys, env.size = ranks, keys[:0], size }()
	for i, el := range els {
		ranks[i] = [2]int{0, i}
		keys = appendValues(keys, el.v, r.rel.group, env.at(el))
		key := keys[i*g : (i+1)*g]
		h, ok := hashValues(key)
		if ok {
			idx.each(h, func(k int) bool {
				if equalValues(key, keys[k*g:(k+1)*g]) {
					if ranks[i][0] == 0 {
						ranks[i][1] = k
					}
					ranks[i][0]++
				}
				return true
			})
		}
		idx.add(h, ok)
		size[ranks[i][1]]++
	}
	for i, el := range els {
		env.rank, env.first, env.count = ranks[i][0], els[ranks[i][1]], size[ranks[i][1]]
		hits = r.report(env, el, hits)
	}
	return hits
}

// report applies the rule's cases or asserts to one element.
func (r *yamlRule) report(env *relEnv, el elem, hits []Hit) []Hit {
	sc := env.at(el)
	if len(r.rel.cases) == 0 {
		n := len(hits)
		hits = r.check(el.v, sc, hits)
		for i := n; i < len(hits); i++ {
			hits[i].Path = "" // the finding names its element (Target), like a Rego rule's
		}
		return hits
	}
	i := firstCase(r.rel.cases, el.v, sc)
	if i < 0 {
		return hits
	}
	c := r.rel.cases[i]
	sev := r.Severity
	if c.severity != nil {
		sev = *c.severity
	}
	h := newHit(r.ID, r.Pack, sev, renderPieces(c.message, el.v, sc, ""))
	h.Target = targetOfScope(sc)
	if c.path != nil {
		h.Path = renderPieces(c.path, el.v, sc, "")
	}
	return append(hits, h)
}

// mayHoldKey reports whether JSON text s may have a member named by one of
// keys (lower-case), compared as truthy_keys compares them (any case). It
// is false only when no key is written in s byte for byte in any ASCII case
// and s has no escape (\\u) or non-ASCII byte through which one could be
// written otherwise, so a text it rules out has no such member whatever it
// holds.
func mayHoldKey(s string, keys []string) bool {
	return mayHoldKeyTable(s, keys, keyStops(keys))
}

// keyStops marks the bytes at which mayHoldKeyTable looks closer: the first
// letter of each key in both cases, a backslash and every non-ASCII byte.
// A key that is not ASCII marks every byte (nothing is ruled out).
func keyStops(keys []string) *[256]bool {
	var stop [256]bool
	for c := 0x80; c < 256; c++ {
		stop[c] = true
	}
	stop['\\'] = true
	for _, k := range keys {
		for i := 0; i < len(k); i++ {
			if k[i] >= utf8.RuneSelf {
				for c := range stop {
					stop[c] = true
				}
				return &stop
			}
		}
		if k == "" {
			continue
		}
		c := k[0]
		stop[c] = true
		if 'a' <= c && c <= 'z' {
			stop[c-32] = true
		}
	}
	return &stop
}

func mayHoldKeyTable(s string, keys []string, stop *[256]bool) bool {
	for _, k := range keys {
		for i := 0; i < len(k); i++ {
			if k[i] >= utf8.RuneSelf {
				return true
			}
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !stop[c] {
			continue
		}
		if c >= utf8.RuneSelf || (c == '\\' && i+1 < len(s) && s[i+1] == 'u') {
			return true
		}
		lc := c | 0x20
		for _, k := range keys {
			if len(k) > 0 && lc == k[0] && len(s)-i >= len(k) && strings.EqualFold(s[i:i+len(k)], k) {
				return true
			}
		}
	}
	return false
}
