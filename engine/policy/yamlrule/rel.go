package yamlrule

// Relational forms of YAML rules (docs/writing-rules.md, "Relating
// elements"). A plain YAML rule looks at one element at a time; the
// integrity pack's block rules relate elements to each other: every tool
// result answers a call of its block, an id is unique within a message, a
// failed call is only a warning when a retry of the same tool succeeded.
// The forms, each compiled once into matchers over the document:
//
//   - let: named values of an element. A join `{join: PATH, where, on:
//     {MINE: THEIRS}, differ, order}` gives the partners: the elements of
//     PATH (or of another rule, `join: rule:ID`) that pass where, whose
//     THEIRS values equal the element's MINE values, minus those whose
//     differ values are equal, before or after the element when order says
//     so; `$name.count`, `$name.first.PATH`. A value let is `{cases: [{when,
//     text}]}`, `{truthy_keys: [KEY...], of: [PATH...]}`, `{tag_body: PATH,
//     tag: NAME}` or `{occurrences: TEXT, in: PATH}`; `$name` reads it.
//   - group: paths whose equal values make a group of the rule's elements;
//     `$group.rank`, `$group.count`, `$group.first.PATH`.
//   - cases: instead of assert, {when, message, severity, path}: the first
//     case whose when holds reports the element.
//   - unless: conditions that, when all hold, leave the element out.
//   - part_of: an entry reporting under another rule's id.
//
// rel.go compiles them, rel_cache.go holds the per-document
// partner sets and role index, rel_eval.go evaluates, truthy.go
// is truthy_keys' pre-scan.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"gopkg.in/yaml.v3"

	"github.com/chatlint/chatlint/engine/finding"
)

// elem is an element a walk reached, with where it stands: its value and
// its indexes. The rest of its scope is the same for every element of a
// document (the document, its member rows, the relational environment) or
// found from its indexes (its message, tool or entry: an item of the
// document's own list, which only a walk's first step names), so a partner
// set, a shared walk and a rule's elements hold no copy of it:
// Cache.scope and relEnv.at rebuild the whole scope where a path is read.
type elem struct {
	v ast.Value
	// as in scope
	msgIdx, callIdx, toolIdx, entIdx, pos, row int32
	inRaw                                      bool
}

// elemOf is the element v of a walk standing at sc.
func elemOf(v ast.Value, sc *scope) elem {
	return elem{v: v, msgIdx: sc.msgIdx, callIdx: sc.callIdx, toolIdx: sc.toolIdx, entIdx: sc.entIdx,
		pos: sc.pos, row: sc.row, inRaw: sc.inRaw}
}

// fill sets in sc where el stands in c's document, leaving its document,
// member rows and environment as they are.
func (el *elem) fill(sc *scope, c *Cache) {
	// a walk's first step alone names a context (scope.enter), and sets
	// its index with it
	sc.message, sc.tool, sc.entry = nil, nil, nil
	switch {
	case el.msgIdx >= 0:
		sc.message = c.contextAt(ctxListMessages, el.msgIdx)
	case el.toolIdx >= 0:
		sc.tool = c.contextAt(ctxListTools, el.toolIdx)
	case el.entIdx >= 0:
		sc.entry = c.contextAt(ctxListEntries, el.entIdx)
	}
	sc.msgIdx, sc.callIdx, sc.toolIdx, sc.entIdx = el.msgIdx, el.callIdx, el.toolIdx, el.entIdx
	sc.pos, sc.row, sc.inRaw = el.pos, el.row, el.inRaw
}

// The document's lists whose items are contexts, as Cache.contexts holds them.
const (
	ctxListMessages = iota
	ctxListTools
	ctxListEntries
)

var ctxListKeys = [...]*ast.Term{ast.StringTerm("messages"), ast.StringTerm("tools"), ast.StringTerm("entries")}

// contextAt is item i of the document's list (ctxList...), as a walk's
// first step read it: nil when it is not an object.
func (c *Cache) contextAt(list int, i int32) ast.Object {
	if c.contextsGen != c.gen+1 {
		c.contextsGen = c.gen + 1
		for k, key := range ctxListKeys {
			c.contexts[k] = nil
			if c.doc == nil {
				continue
			}
			if t := c.doc.Get(key); t != nil {
				c.contexts[k], _ = t.Value.(*ast.Array)
			}
		}
	}
	arr := c.contexts[list]
	if arr == nil || int(i) >= arr.Len() {
		return nil
	}
	return asObject(arr.Elem(int(i)).Value)
}

// scope is el's scope in the cache's document, reading no rule's lets.
func (c *Cache) scope(el *elem) scope {
	sc := scope{doc: c.doc, mem: &c.members}
	el.fill(&sc, c)
	return sc
}

// position is el's place in document order for order: before and after:
// its message (a message, or a call inside one), else its entry, else its
// tool.
func (el *elem) position() int {
	switch {
	case el.msgIdx >= 0:
		return int(el.msgIdx)
	case el.entIdx >= 0:
		return int(el.entIdx)
	}
	return int(el.toolIdx)
}

type joinSpec struct {
	sig          string // what identifies the partner set and its index
	id           int    // setID(sig)
	given        []step
	rule         string // rule:ID, the rule whose elements are the partners
	ruleRef      *Rule  // rule, once the file is compiled
	where        []check
	mine, theirs [][]seg
	differMine   [][]seg
	differTheirs [][]seg
	order        int // -1 before the element, 1 after, 0 anywhere
	role         string
	walk         *walkSpec // its elements (walks.go), for a path join whose where reads values alone
}

type truthySpec struct {
	want []string // lower-cased keys
	of   []truthySource
	stop *keyStopTable // keyStops(want)
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
	sym    int // letSym(name)
	join   *joinSpec
	cases  []caseSpec
	truthy *truthySpec
	tag    *tagSpec
	count  *occurrencesSpec
	fn     *fnLet // schema_errors, distinct (fns.go)
	inst   []seg  // {instant: PATH} (session.go)
	share  int    // the join's shared query (shared.go), or -1
}

type caseSpec struct {
	when     []check
	message  []piece // nil in a let case without text
	severity *finding.Severity
	path     []piece // the JSON Pointer the finding names, when given
	msgOnly  bool    // target: message: the finding names the element's message, not the call
}

// relSpec holds the relational forms of one rule; nil for a plain rule.
type relSpec struct {
	lets   []*letSpec
	group  [][]seg
	cases  []caseSpec
	unless []check
	role   string // see roleOf
	// rows: another rule joins this one's elements, and its lets are kept
	// per element for the document (rel_rows.go)
	rows bool
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
	// fns.go's forms
	SchemaErrors string   `yaml:"schema_errors"`
	Schema       string   `yaml:"schema"`
	Distinct     []string `yaml:"distinct"`
	Instant      string   `yaml:"instant"`
}

type caseYAML struct {
	When     yaml.Node `yaml:"when"`
	Message  string    `yaml:"message"`
	Text     string    `yaml:"text"`
	Severity string    `yaml:"severity"`
	Path     string    `yaml:"path"`
	Target   string    `yaml:"target"`
}

// reservedNames are the contexts a path may start with; a let may not take
// their names.
var reservedNames = []string{"message", "tool", "entry", "document", "group", "line", "self", "index", "previous"}

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
		switch c.Target {
		case "":
		case "message":
			cs.msgOnly = true
		default:
			return nil, fmt.Errorf("cases[%d]: target: want message or nothing", i)
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
	l := &letSpec{name: name, sym: letSym(name), share: -1}
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
	if ly.Instant != "" {
		kinds++
		l.inst = parsePath(ly.Instant)
	}
	if fn, ok, err := compileFnLet(ly); ok {
		if err != nil {
			return nil, err
		}
		kinds++
		l.fn = fn
	}
	if kinds != 1 {
		return nil, fmt.Errorf("want exactly one of join, cases, truthy_keys, tag_body, occurrences, instant, schema_errors or distinct")
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
	if j.rule == "" && allMovable(j.where) {
		j.walk = newWalk(j.given, j.role, nil, j.where, j.where)
	}
	j.sig = jy.Join + "|" + strings.Join(where, ",") + "|" + strings.Join(theirs, ",") + "|" + strings.Join(differ, ",")
	j.id = setID(j.sig)
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

// LinkRules resolves the rule:ID joins and the part_of entries of one
// file's rules.
func LinkRules(rules []*Rule) error {
	byID := map[string]*Rule{}
	for _, r := range rules {
		if r.PartOf == "" {
			byID[r.ID] = r
		}
	}
	for _, r := range rules {
		if r.PartOf == "" {
			continue
		}
		main := byID[r.PartOf]
		if main == nil {
			return fmt.Errorf("part_of: no rule %s in this file", r.PartOf)
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
			other.rel.rows = len(other.rel.group) == 0
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
