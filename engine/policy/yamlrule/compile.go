package yamlrule

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"gopkg.in/yaml.v3"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/policy/builtins"
	"github.com/chatlint/chatlint/engine/rule"
)

// Rule is a YAML rule compiled to Go matchers.
type Rule struct {
	rule.Rule
	given   []step
	formats []string
	mode    string
	where   []check
	assert  []check
	message []piece
	Action  actArgs  // a cleanup rule's action (op and arguments), nil for a check
	rel     *relSpec // let, group and cases (rel.go), nil for a plain rule
	// partOf is set on an entry that reports under the id of another rule of
	// its file (part_of: ID), as a Rego rule with several bodies does: it takes
	// that rule's id, severity and description and is not listed on its own.
	PartOf string
	role   string // roleOf(given, where): the walk visits only messages of this role
	// hoisted: the conditions split for the shortcuts (hoist.go)
	hoisted *hoisted
	// lazyPtr: the walk records positions and builds an element's JSON
	// Pointer only for a finding (pointer.go)
	lazyPtr bool
}

// step is one segment of a `given` path: a member name, then optionally [*].
type step struct {
	field string
	key   *ast.Term
	each  bool
	slot  int      // the field's slot in a memberRows row (members.go)
	kind  stepKind // what the walk records of the elements it reaches here
	seg   seg      // the member as a path segment (key and slot), for memberAt
}

// stepKind names the members whose elements a walk records in its scope.
type stepKind uint8

const (
	stepOther stepKind = iota
	stepMessages
	stepTools
	stepEntries
	stepToolCalls
	stepRaw
)

var stepKinds = map[string]stepKind{"messages": stepMessages, "tools": stepTools, "entries": stepEntries, "tool_calls": stepToolCalls, "raw": stepRaw}

// seg is one segment of a dotted path, with its key term built once so a
// lookup on the hot path allocates nothing.
type seg struct {
	name  string
	key   *ast.Term
	index int // array index the segment names, or -1
	// pathKey is "<name>_path": the member that holds the JSON Pointer of
	// a normalized member such as function or parameters.
	pathKey *ast.Term
	slot    int // the name's slot in a memberRows row (members.go)
	msgSlot int // the name's slot in a document.MessageValue, or -1 (views.go)
	// what the segment names when a path starts with it (head.go)
	dollar  bool    // written with $
	virt    bool    // may name a let or $group of the rule
	isGroup bool    // $group
	isIndex bool    // $index
	ctx     ctxKind // the context it names, when it is not the element's member
	sym     int     // letSym of the name without $, when virt
}

func parsePath(s string) []seg {
	if s == "$" || s == "" {
		return nil
	}
	parts := strings.Split(s, ".")
	out := make([]seg, len(parts))
	for i, p := range parts {
		idx, err := strconv.Atoi(p)
		if err != nil || idx < 0 {
			idx = -1
		}
		out[i] = seg{name: p, key: segKey(p, idx), index: idx, pathKey: ast.StringTerm(p + "_path"), slot: memberSlot(p), msgSlot: document.MessageSlot(p)}
		out[i].head() // every segment: a path read from a partner ($group.first.$message.index) starts inside
	}
	return out
}

// check is one condition on one path of the element.
type check struct {
	path []seg
	text string // the path as written
	cond condition
}

// below reports whether c's path lies under (or at) the path of other, so
// that a failing `function` hides the findings of `function.parameters`.
func (c check) below(other check) bool {
	if len(other.path) > len(c.path) {
		return false
	}
	for i, s := range other.path {
		if c.path[i].name != s.name {
			return false
		}
	}
	return true
}

type yamlFile struct {
	Rules []yaml.Node `yaml:"rules"`
}

type yamlRuleSpec struct {
	ID          string     `yaml:"id"`
	Title       string     `yaml:"title"`
	Severity    string     `yaml:"severity"`
	Description string     `yaml:"description"`
	Given       string     `yaml:"given"`
	Formats     []string   `yaml:"formats"`
	Profiles    []string   `yaml:"profiles"`
	Refs        []string   `yaml:"refs"`
	Scope       string     `yaml:"scope"`
	Mode        string     `yaml:"mode"`
	Where       yaml.Node  `yaml:"where"`
	Assert      yaml.Node  `yaml:"assert"`
	Message     string     `yaml:"message"`
	Example     string     `yaml:"example"`
	Fix         string     `yaml:"fix"`
	Action      actArgs    `yaml:"action"`
	Repairs     []string   `yaml:"repairs"`
	PartOf      string     `yaml:"part_of"`
	Let         yaml.Node  `yaml:"let"`
	Group       []string   `yaml:"group"`
	Cases       []caseYAML `yaml:"cases"`
	Unless      yaml.Node  `yaml:"unless"`
}

// Compile compiles the rules of one YAML file.
func Compile(f File, pack string) ([]*Rule, error) {
	return CompileSource(ParseSource(f), pack)
}

// CompileSource is Compile over a file parsed once (source.go).
func CompileSource(src *Source, pack string) ([]*Rule, error) {
	f := src.File
	var doc yamlFile
	if err := src.Decode(&doc); err != nil {
		return nil, err
	}
	var out []*Rule
	var errs []string
	for i := range doc.Rules {
		n := &doc.Rules[i]
		r, err := CompileRule(n, f.Name, pack)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s:%d:%d: %v", f.Name, n.Line, n.Column, err))
			continue
		}
		out = append(out, r)
	}
	if len(errs) > 0 {
		return nil, &CompileError{Errors: errs}
	}
	if err := LinkRules(out); err != nil {
		return nil, &CompileError{Errors: []string{fmt.Sprintf("%s: %v", f.Name, err)}}
	}
	return out, nil
}

// CompileRule compiles one rule of a file (a rules entry, or a rego_when
// entry of policy's gate).
func CompileRule(n *yaml.Node, file, pack string) (*Rule, error) {
	var s yamlRuleSpec
	if err := n.Decode(&s); err != nil {
		return nil, err
	}
	if s.PartOf != "" {
		if s.ID != "" || s.Severity != "" || s.Description != "" {
			return nil, fmt.Errorf("part_of %s: a part takes its id, severity and description from the rule it is part of", s.PartOf)
		}
		s.ID, s.Severity, s.Description = s.PartOf, "info", "part"
	}
	if s.ID == "" {
		return nil, fmt.Errorf("rule needs an id")
	}
	sev, err := finding.ParseSeverity(s.Severity)
	if err != nil {
		return nil, fmt.Errorf("rule %s: %v", s.ID, err)
	}
	if s.Description == "" {
		return nil, fmt.Errorf("rule %s: description is required", s.ID)
	}
	for i, f := range s.Formats {
		pf, ok := document.ParseFormat(f)
		if !ok {
			return nil, fmt.Errorf("rule %s: formats: unknown format %q (want %s)", s.ID, f, document.FormatNames())
		}
		s.Formats[i] = string(pf) // a former name reads as the format it became
	}
	if s.Scope != "" && s.Scope != rule.ScopeDataset {
		return nil, fmt.Errorf("rule %s: scope must be %s or left out", s.ID, rule.ScopeDataset)
	}
	if s.Mode != "" && s.Mode != "inline" && s.Mode != "structured" {
		return nil, fmt.Errorf("rule %s: mode must be inline or structured", s.ID)
	}
	r := &Rule{
		Rule: rule.Rule{ID: s.ID, Title: s.Title, Severity: sev, Pack: pack, Kind: "yaml",
			Description: strings.TrimSpace(s.Description), Source: fmt.Sprintf("%s:%d", file, n.Line),
			Example: strings.TrimSpace(s.Example), Fix: strings.TrimSpace(s.Fix), Formats: s.Formats, Repairs: s.Repairs,
			Profiles: s.Profiles, Scope: s.Scope, Refs: s.Refs},
		formats: s.Formats,
		mode:    s.Mode,
		PartOf:  s.PartOf,
	}
	if r.given, err = parseGiven(s.Given); err != nil {
		return nil, fmt.Errorf("rule %s: given: %v", s.ID, err)
	}
	if r.where, err = compileChecks(&s.Where); err != nil {
		return nil, fmt.Errorf("rule %s: where: %v", s.ID, err)
	}
	if r.assert, err = compileChecks(&s.Assert); err != nil {
		return nil, fmt.Errorf("rule %s: assert: %v", s.ID, err)
	}
	if r.rel, err = compileRel(&s); err != nil {
		return nil, fmt.Errorf("rule %s: %v", s.ID, err)
	}
	r.role = roleOf(r.given, r.where)
	r.lazyPtr = lazyPointers(r.given)
	r.hoist()
	if r.rel != nil {
		r.rel.role = r.role
	}
	r.shareJoins()
	switch {
	case r.rel != nil && len(r.rel.cases) > 0 && len(r.assert) > 0:
		return nil, fmt.Errorf("rule %s: a rule has assert or cases, not both", s.ID)
	case len(r.assert) == 0 && (r.rel == nil || len(r.rel.cases) == 0):
		return nil, fmt.Errorf("rule %s: assert needs at least one condition", s.ID)
	}
	r.message = parseTemplate(s.Message)
	if s.Action != nil && s.Mode != "" {
		r.Modes = []string{s.Mode} // a cleanup rule repairs only in its mode
	}
	if s.Action != nil {
		if op, _ := s.Action["op"].(string); op == "" {
			return nil, fmt.Errorf("rule %s: action needs an op", s.ID)
		}
		r.Action = s.Action
	}
	return r, nil
}

// parseGiven parses "messages[*].tool_calls[*]"; "" and "document" mean the
// document itself.
func parseGiven(s string) ([]step, error) {
	if s == "" || s == "document" || s == "$" {
		return nil, nil
	}
	var steps []step
	for _, part := range strings.Split(s, ".") {
		st := step{field: part}
		if strings.HasSuffix(part, "[*]") {
			st = step{field: strings.TrimSuffix(part, "[*]"), each: true}
		}
		st.key, st.slot, st.kind = astjson.Key(st.field), memberSlot(st.field), stepKinds[st.field]
		st.seg = seg{name: st.field, key: st.key, slot: st.slot, msgSlot: document.MessageSlot(st.field), index: -1}
		if st.field == "" || strings.ContainsAny(st.field, "[]*") {
			return nil, fmt.Errorf("bad segment %q in %q (want name or name[*])", part, s)
		}
		steps = append(steps, st)
	}
	return steps, nil
}

func compileChecks(n *yaml.Node) ([]check, error) {
	if n.Kind == yaml.AliasNode { // a condition map written once (&name) and reused (*name)
		n = n.Alias
	}
	if n.Kind == 0 {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: want a map of path: condition", n.Line)
	}
	var out []check
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], n.Content[i+1]
		if key.Tag == "!!merge" { // <<: *name takes the conditions of a map written elsewhere
			merged, err := compileChecks(val)
			if err != nil {
				return nil, err
			}
			out = append(out, merged...)
			continue
		}
		c, err := compileCondition(val)
		if err != nil {
			return nil, fmt.Errorf("line %d: %s: %v", val.Line, key.Value, err)
		}
		if len(c.tests) == 1 && c.tests[0].el == nil && c.tests[0].ok != nil && !c.optional {
			c.only = c.tests[0].ok
		}
		out = append(out, check{path: parsePath(key.Value), text: key.Value, cond: c})
	}
	return out, nil
}

// condition holds when the value passes every test; an optional condition
// also holds when the value is absent.
type condition struct {
	optional bool
	tests    []test
	literal  ast.Value // the value a condition written as a bare literal must equal, else nil
	// only is the test of a condition that is one test on the value alone
	// (not optional): allHold calls it without explain's failure text
	only func(v ast.Value) bool
}

type test struct {
	ok   func(v ast.Value) bool // v is nil when absent
	desc string                 // what must hold, e.g. `must be of type object`
	// why, when set, says what is wrong with a value that fails (it
	// replaces the "(it is ...)" the failure text otherwise ends with).
	why func(v ast.Value) string
	// el, when set, is used instead of ok: a test that reads another path
	// of the element (a comparison with a path, not) gets the element too
	// (eltest.go).
	el *elTest
}

var jsonTypes = []string{"string", "number", "boolean", "null", "object", "array"}

func compileCondition(n *yaml.Node) (condition, error) {
	if n.Kind == yaml.ScalarNode {
		switch n.Value {
		case "absent":
			return condition{tests: []test{presentTest(false)}}, nil
		case "present":
			return condition{tests: []test{presentTest(true)}}, nil
		}
		var lit any
		if err := n.Decode(&lit); err != nil {
			return condition{}, err
		}
		t, err := equalsTest(lit, true)
		w, _ := ast.InterfaceToValue(lit)
		return condition{tests: []test{t}, literal: w}, err
	}
	if n.Kind != yaml.MappingNode {
		return condition{}, fmt.Errorf("a condition is absent, present, a literal, or a map of operators")
	}
	var c condition
	for i := 0; i+1 < len(n.Content); i += 2 {
		op, arg := n.Content[i].Value, n.Content[i+1]
		if op == "not" { // the value fails the condition given (a value that is absent fails most)
			inner, err := compileCondition(arg)
			if err != nil {
				return c, fmt.Errorf("not: %v", err)
			}
			c.tests = append(c.tests, test{desc: "must not hold: " + strings.Join(inner.descs(), ", "),
				el: &elTest{kind: elNot, not: &inner}})
			continue
		}
		if op == "extends" { // a list starts with another (session.go)
			t, err := extendsTest(arg)
			if err != nil {
				return c, fmt.Errorf("extends: %v", err)
			}
			c.tests = append(c.tests, t)
			continue
		}
		var a any
		if err := arg.Decode(&a); err != nil {
			return c, err
		}
		if t, ok, err := comparison(op, a); ok {
			if err != nil {
				return c, fmt.Errorf("%s: %v", op, err)
			}
			c.tests = append(c.tests, t)
			continue
		}
		t, err := operator(op, a)
		if err != nil {
			return c, fmt.Errorf("%s: %v", op, err)
		}
		if op == "optional" {
			c.optional = a == true
			continue
		}
		c.tests = append(c.tests, t)
	}
	return c, nil
}

func operator(op string, a any) (test, error) {
	switch op {
	case "optional":
		if _, ok := a.(bool); !ok {
			return test{}, fmt.Errorf("want true or false")
		}
		return test{}, nil
	case "present":
		b, ok := a.(bool)
		if !ok {
			return test{}, fmt.Errorf("want true or false")
		}
		return presentTest(b), nil
	case "type":
		var types []string
		switch v := a.(type) {
		case nil: // YAML reads a bare null as nothing
			types = []string{"null"}
		case string:
			types = []string{v}
		case []any:
			for _, x := range v {
				s, _ := x.(string)
				types = append(types, s)
			}
		}
		for _, t := range types {
			if !slices.Contains(jsonTypes, t) {
				return test{}, fmt.Errorf("unknown type %q (want one of %s)", t, strings.Join(jsonTypes, ", "))
			}
		}
		if len(types) == 0 {
			return test{}, fmt.Errorf("want a type name or a list of them")
		}
		return test{ok: func(v ast.Value) bool { return v != nil && slices.Contains(types, typeName(v)) },
			desc: "must be of type " + strings.Join(types, " or ")}, nil
	case "equals":
		return equalsTest(a, true)
	case "not_equals":
		return equalsTest(a, false)
	case "in":
		vals, err := listValues(a)
		if err != nil {
			return test{}, err
		}
		return test{ok: func(v ast.Value) bool {
			return v != nil && slices.ContainsFunc(vals, func(w ast.Value) bool { return sameValue(v, w) })
		}, desc: "must be one of " + ast.NewArray(termsOf(vals)...).String()}, nil
	case "subset_of":
		// A set or list whose every element is one of the listed values, or
		// an object whose every key is (its elements are its keys): a rule
		// on "no other key than these" reads the lookup's set of a
		// document's message keys once, or one object's keys. An object's
		// keys are counted with Len and Get, which a view answers without
		// building the object.
		vals, err := listValues(a)
		if err != nil {
			return test{}, err
		}
		known := func(t *ast.Term) bool {
			return slices.ContainsFunc(vals, func(w ast.Value) bool { return sameValue(t.Value, w) })
		}
		var keys []*ast.Term // the listed values an object may have as keys
		for _, v := range vals {
			if _, ok := v.(ast.String); ok && !slices.ContainsFunc(keys, func(k *ast.Term) bool { return k.Value.Compare(v) == 0 }) {
				keys = append(keys, ast.NewTerm(v))
			}
		}
		return test{ok: func(v ast.Value) bool {
			switch v := v.(type) {
			case ast.Set:
				return !v.Until(func(t *ast.Term) bool { return !known(t) })
			case *ast.Array:
				return !v.Until(func(t *ast.Term) bool { return !known(t) })
			case ast.Object:
				if v.Len() > len(keys) {
					return false
				}
				n := 0
				for _, k := range keys {
					if v.Get(k) != nil {
						n++
					}
				}
				return n == v.Len()
			}
			return false
		}, desc: "must hold only elements among " + ast.NewArray(termsOf(vals)...).String()}, nil
	case "datetime":
		// A date-time as chatlint.datetime_valid accepts it (what the
		// contract's reference validator reads as one): a gate or a rule
		// can then say it without OPA.
		if a != true {
			return test{}, fmt.Errorf("want true")
		}
		return test{ok: func(v ast.Value) bool { return v != nil && builtins.DateTimeProblem(v) == "" },
			desc: "must be a date-time",
			why: func(v ast.Value) string {
				if v == nil {
					return "it is missing"
				}
				return builtins.DateTimeProblem(v)
			}}, nil
	case "not_empty":
		want, ok := a.(bool)
		if !ok {
			return test{}, fmt.Errorf("want true or false")
		}
		if want {
			return test{ok: notEmpty, desc: "must not be empty"}, nil
		}
		return test{ok: func(v ast.Value) bool { return !notEmpty(v) }, desc: "must be empty"}, nil
	case "truthy":
		want, ok := a.(bool)
		if !ok {
			return test{}, fmt.Errorf("want true or false")
		}
		desc := "must be truthy"
		if !want {
			desc = "must not be truthy"
		}
		return test{ok: func(v ast.Value) bool { return (v != nil && builtins.Truthy(v)) == want }, desc: desc}, nil
	case "prefix", "suffix", "contains":
		s, ok := a.(string)
		if !ok {
			return test{}, fmt.Errorf("want a string")
		}
		fn := map[string]func(string, string) bool{"prefix": strings.HasPrefix, "suffix": strings.HasSuffix, "contains": strings.Contains}[op]
		word := map[string]string{"prefix": "start with", "suffix": "end with", "contains": "contain"}[op]
		return test{ok: func(v ast.Value) bool {
			str, ok := v.(ast.String)
			return ok && fn(string(str), s)
		}, desc: fmt.Sprintf("must %s %q", word, s)}, nil
	case "json":
		// The value is a string holding JSON text: any JSON value
		// (json: valid), an object (json: object) or a list (json: array).
		kind, _ := a.(string)
		switch kind {
		// Text holding a number beyond the engine's range is JSON all the
		// same (json: valid), and an object is still an object (json:
		// object): its kind is read from its first character (jsonfuncs.go).
		case "valid":
			return test{ok: func(v ast.Value) bool {
				if _, ok := builtins.JSONText(v); ok {
					return true
				}
				_, big := builtins.RangeText(v)
				return big
			}, desc: "must be JSON text"}, nil
		case "object":
			return test{ok: func(v ast.Value) bool {
				x, ok := builtins.JSONText(v)
				_, obj := x.(ast.Object)
				if !ok {
					c, _ := builtins.RangeText(v)
					return c == '{'
				}
				return obj
			}, desc: "must be the JSON text of an object",
				why: func(v ast.Value) string {
					x, ok := builtins.JSONText(v)
					if !ok {
						return "it is not JSON text"
					}
					return "it holds " + astjson.Kind(x)
				}}, nil
		case "array":
			return test{ok: func(v ast.Value) bool {
				x, ok := builtins.JSONText(v)
				_, arr := x.(*ast.Array)
				return ok && arr // a list is read for its items: one the engine cannot hold is no list it can use
			}, desc: "must be the JSON text of a list"}, nil
		}
		return test{}, fmt.Errorf("want valid, object or array")
	case "json_schema":
		// The value is a valid JSON Schema, as chatlint.schema_problem
		// judges it (compiled once per distinct schema).
		if a != true {
			return test{}, fmt.Errorf("want true")
		}
		return test{ok: func(v ast.Value) bool { return v != nil && builtins.Schemas.Get(v).Checked().Problem == "" },
			desc: "must be a valid JSON Schema",
			why: func(v ast.Value) string {
				if v == nil {
					return "it is missing"
				}
				return builtins.Schemas.Get(v).Checked().Problem
			}}, nil
	case "matches":
		s, ok := a.(string)
		if !ok {
			return test{}, fmt.Errorf("want a regular expression string")
		}
		re, err := regexp.Compile(s)
		if err != nil {
			return test{}, err
		}
		match := re.MatchString
		if run, ok := matchRun(s); ok {
			match = run
		} else if h := headLines(s); h != nil { // the same answers (headlines.go)
			match = h.matchString
		}
		return test{ok: func(v ast.Value) bool {
			str, ok := v.(ast.String)
			return ok && match(string(str))
		}, desc: fmt.Sprintf("must match %q", s)}, nil
	}
	return test{}, fmt.Errorf("unknown operator (want present, optional, type, equals, not_equals, in, subset_of, not_empty, truthy, prefix, suffix, contains, matches, json, json_schema, datetime, less_than, at_most, greater_than, at_least, same_as or not)")
}

func presentTest(want bool) test {
	if want {
		return test{ok: func(v ast.Value) bool { return v != nil }, desc: "must be present"}
	}
	return test{ok: func(v ast.Value) bool { return v == nil }, desc: "must be absent"}
}

func equalsTest(lit any, want bool) (test, error) {
	w, err := ast.InterfaceToValue(lit)
	if err != nil {
		return test{}, err
	}
	desc := "must equal " + w.String()
	if !want {
		desc = "must not equal " + w.String()
	}
	return test{ok: func(v ast.Value) bool { return (v != nil && sameValue(v, w)) == want }, desc: desc}, nil
}

func notEmpty(v ast.Value) bool {
	switch v := v.(type) {
	case ast.String:
		return v != ""
	case *ast.Array:
		return v.Len() > 0
	case ast.Object:
		return v.Len() > 0
	}
	return false
}

func typeName(v ast.Value) string {
	switch v.(type) {
	case ast.String:
		return "string"
	case ast.Number:
		return "number"
	case ast.Boolean:
		return "boolean"
	case ast.Null:
		return "null"
	case ast.Object:
		return "object"
	case *ast.Array:
		return "array"
	}
	return "other"
}

func termsOf(vs []ast.Value) []*ast.Term {
	out := make([]*ast.Term, len(vs))
	for i, v := range vs {
		out[i] = ast.NewTerm(v)
	}
	return out
}

// holds reports whether the condition holds for v (nil when absent); when
// not, it returns the description of the first failing test.
// el and sc are the element and its scope, which a comparison with another
// path reads.
func (c *condition) holds(v, el ast.Value, sc *scope) (bool, string) {
	ok, why, _ := c.explain(v, el, sc)
	return ok, why
}

// passes is holds without the failure text, for the callers that only ask
// whether the condition holds: a failing test's why would build a string
// for nothing.
func (c *condition) passes(v, el ast.Value, sc *scope) bool {
	if v == nil && c.optional {
		return true
	}
	for i := range c.tests {
		t := &c.tests[i]
		if t.el != nil {
			if !t.el.holds(v, el, sc) {
				return false
			}
			continue
		}
		if !t.ok(v) {
			return false
		}
	}
	return true
}

// explain is holds, and whether the failure text already says what is
// wrong with the value (a test with a why).
func (c *condition) explain(v, el ast.Value, sc *scope) (bool, string, bool) {
	if v == nil && c.optional {
		return true, "", false
	}
	for _, t := range c.tests {
		if t.el != nil {
			if !t.el.holds(v, el, sc) {
				return false, t.desc, false
			}
			continue
		}
		if !t.ok(v) {
			if t.why != nil {
				return false, t.desc + ": " + t.why(v), true
			}
			return false, t.desc, false
		}
	}
	return true, "", false
}

// comparison compiles less_than, at_most, greater_than and at_least: the
// argument is a number or the path of a number on the same element (such as
// $answers.count). ok is false for other operators.
func comparison(op string, a any) (test, bool, error) {
	if op == "same_as" { // equal to the value of another path of the element
		p, ok := a.(string)
		if !ok {
			return test{}, true, fmt.Errorf("want a path")
		}
		return test{desc: "must be the same as " + p, el: &elTest{kind: elSame, path: parsePath(p)}}, true, nil
	}
	want := map[string]func(int) bool{
		"less_than":    func(c int) bool { return c < 0 },
		"at_most":      func(c int) bool { return c <= 0 },
		"greater_than": func(c int) bool { return c > 0 },
		"at_least":     func(c int) bool { return c >= 0 },
	}[op]
	if want == nil {
		return test{}, false, nil
	}
	word := strings.ReplaceAll(op, "_", " ")
	t := &elTest{kind: elCompare, want: want}
	switch x := a.(type) {
	case int, float64:
		t.num = ast.Number(fmt.Sprint(x)) // boxed once
	case string:
		t.path = parsePath(x)
	default:
		return test{}, true, fmt.Errorf("want a number or a path")
	}
	return test{desc: fmt.Sprintf("must be %s %v", word, a), el: t}, true, nil
}

// Relational reports whether r uses let, group or cases (rel.go).
func (r *Rule) Relational() bool { return r.rel != nil }

// listValues is an operator's argument that is a list of JSON values (in,
// subset_of), as OPA values.
func listValues(a any) ([]ast.Value, error) {
	list, ok := a.([]any)
	if !ok {
		return nil, fmt.Errorf("want a list")
	}
	vals := make([]ast.Value, len(list))
	for i, x := range list {
		v, err := ast.InterfaceToValue(x)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	return vals, nil
}

// segKey is the key term a path segment looks a member up by: for a member
// name, the decoder's own term for it (astjson.Key), so that a view finds
// it by pointer; a position or a context ($message) keeps a term of its own
// and takes no slot of the decoder's cache.
func segKey(name string, index int) *ast.Term {
	if index >= 0 || strings.HasPrefix(name, "$") {
		return ast.StringTerm(name)
	}
	return astjson.Key(name)
}
