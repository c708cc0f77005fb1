package policy

import (
	"sort"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/engine/policy/builtins"
	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
)

// probes are the paths the document builder asks about (document.NewFields)
// and a few deeper ones.
var probes = []string{
	"format", "id", "mode", "profile", "raw", "lookup", "tools", "entries",
	"messages", "messages.*.role", "messages.*.text", "messages.*.raw", "messages.*.tool_call_id",
	"messages.*.stop_reason", "messages.*.tool_calls", "messages.*.tool_calls.*.id",
	"messages.*.tool_calls.*.name", "messages.*.tool_calls.*.arguments", "tools.*.name",
}

// readProbes returns the probes s says a rule may read, or "everything".
func readProbes(s *fieldSet) []string {
	var out []string
	for _, p := range probes {
		if s.reads(strings.Split(p, ".")...) {
			out = append(out, p)
		}
	}
	if len(out) == len(probes) {
		return []string{"everything"}
	}
	sort.Strings(out)
	return out
}

func regoFieldSet(t *testing.T, src string) *fieldSet {
	t.Helper()
	c := ast.NewCompiler().WithCapabilities(builtins.Capabilities())
	mod, err := ast.ParseModuleWithOpts("x.rego", src, ast.ParserOptions{RegoVersion: ast.RegoV1})
	if err != nil {
		t.Fatal(err)
	}
	if c.Compile(map[string]*ast.Module{"x.rego": mod}); c.Failed() {
		t.Fatal(c.Errors)
	}
	s := &fieldSet{}
	for _, m := range c.Modules {
		regoPaths(m, &s.tree)
	}
	return s
}

func TestRegoFieldReads(t *testing.T) {
	msgAll := []string{"messages", "messages.*.raw", "messages.*.role", "messages.*.stop_reason", "messages.*.text",
		"messages.*.tool_call_id", "messages.*.tool_calls", "messages.*.tool_calls.*.arguments",
		"messages.*.tool_calls.*.id", "messages.*.tool_calls.*.name"}
	cases := []struct {
		name, rego string
		want       []string
	}{
		{"nothing", `deny contains "x" if true`, nil},
		{"one member", `deny contains "x" if input.format == "chat"`, []string{"format"}},
		{"bench pack", `
deny contains f if {
	ids := {c.id | some m in input.messages; m.role == "assistant"; some c in m.tool_calls}
	some i, m in input.messages
	m.role == "tool"
	not ids[m.tool_call_id]
	f := {"msg": sprintf("%d %v", [i, object.get(m, "tool_call_id", null)])}
}`, []string{"messages", "messages.*.role", "messages.*.tool_call_id", "messages.*.tool_calls", "messages.*.tool_calls.*.id"}},
		{"input whole to a builtin", `deny contains x if { x := json.marshal(input) }`, []string{"everything"}},
		{"walk", `deny contains p if { walk(input, [p, v]); v == "secret" }`, []string{"everything"}},
		// The token counter reads the messages and tools of the document it
		// is given, nothing else (builtinDocumentReads).
		{"input to example_tokens", `deny contains n if { n := chatlint.example_tokens(input, "o200k_base") }`,
			append(append([]string(nil), msgAll...), "tools", "tools.*.name")},
		{"a part to example_tokens", `deny contains n if { d := input; n := chatlint.example_tokens(d, input.model.encoding) }`,
			append(append([]string(nil), msgAll...), "tools", "tools.*.name")},
		{"input with a variable key", `deny contains k if { input[k] == 1 }`, []string{"everything"}},
		// Any top-level member may be the one iterated, and "*" matches any name below it.
		{"input with a variable key, then a member", `deny contains k if { input[k].role == "x" }`, []string{"everything"}},
		{"object.get constant key", `deny contains x if { x := object.get(input, "raw", {}) }`, []string{"raw"}},
		{"object.get key path", `deny contains x if { x := object.get(input, ["messages", 0, "text"], "") }`, msgAll},
		{"object.get variable key", `deny contains x if { some k in ["a"]; x := object.get(input, k, 1) }`, []string{"everything"}},
		{"object.get on an element", `deny contains x if { some m in input.messages; x := object.get(m, "text", "") }`, []string{"messages", "messages.*.text"}},
		{"alias of input", `deny contains x if { d := input; x := d.tools[_].name }`, []string{"tools", "tools.*.name"}},
		{"import alias", "import input.messages as ms\ndeny contains 1 if { some m in ms; m.text == \"\" }", []string{"messages", "messages.*.text"}},
		// A function of the module is followed: it reads what its body
		// reads of its parameter (fielduse_funcs.go).
		{"element to a function", "f(x) := x.role\ndeny contains r if { r := f(input.messages[0]) }", []string{"messages", "messages.*.role"}},
		{"input to a function", "f(x) := x.format\ndeny contains r if { r := f(input) }", []string{"format"}},
		{"element used whole in a function", "f(x) := x\ndeny contains r if { r := f(input.messages[0]) }", msgAll},
		{"function through an alias", "f(x) := x.role\ndeny contains r if { m := input.messages[_]; r := f(m); m.text != \"\" }", []string{"messages", "messages.*.role", "messages.*.text"}},
		{"function calling a function", "g(y) := y.name\nf(x) := g(x.tool_calls[_])\ndeny contains r if { r := f(input.messages[_]) }", []string{"messages", "messages.*.tool_calls", "messages.*.tool_calls.*.name"}},
		{"function with an else", "f(x) := x.role if { x.text == \"\" } else := x.tool_call_id\ndeny contains r if { r := f(input.messages[_]) }", []string{"messages", "messages.*.role", "messages.*.text", "messages.*.tool_call_id"}},
		{"function of a pattern", "f({\"role\": r}) := r\ndeny contains r if { r := f(input.messages[_]) }", msgAll},
		// A kind test reads the value's kind: it must be there.
		{"kind test", `deny contains 1 if { some m in input.messages; is_object(m.raw) }`, []string{"messages", "messages.*.raw"}},
		{"kind of an alias", `deny contains t if { some m in input.messages; c := m.raw.tool_calls; not is_array(c); t := type_name(c) }`, []string{"messages", "messages.*.raw"}},
		// A rule whose value holds parts of input is followed where it
		// is iterated, and read whole where it is used whole.
		{"rule of elements", "ts := [m | some m in input.messages; m.role == \"tool\"]\ndeny contains i if { some r in ts; i := r.tool_call_id }", []string{"messages", "messages.*.role", "messages.*.tool_call_id"}},
		{"rule of elements used whole", "ts := [m | some m in input.messages; m.role == \"tool\"]\ndeny contains ts if { ts != [] }", msgAll},
		// Its length is what its body reads; an alias of it is the list.
		{"rule of elements counted", "ts := [m | some m in input.messages; m.role == \"tool\"]\ndeny contains 1 if { count(ts) > 1 }", []string{"messages", "messages.*.role"}},
		{"alias of a rule of elements", "ts := [m | some m in input.messages; m.role == \"tool\"]\ndeny contains i if { x := ts; i := x[0].tool_call_id }", []string{"messages", "messages.*.role", "messages.*.tool_call_id"}},
		{"every over a rule of elements", "ts := [m | some m in input.messages; m.role == \"tool\"]\ndeny contains 1 if { every r in ts { r.text != \"\" } }", []string{"messages", "messages.*.role", "messages.*.text"}},
		{"set of elements", "ts := {m | some m in input.messages; m.role == \"tool\"}\ndeny contains i if { some r in ts; i := r.tool_call_id }", msgAll},
		{"every", `deny contains 1 if { every t in input.tools { t.name != "" } }`, []string{"tools", "tools.*.name"}},
		{"variable bound twice", `deny contains 1 if { x := "tool"; x = input.messages[_].role }`, []string{"messages", "messages.*.role"}},
		{"comprehension", `deny contains ids if { ids := {c.id | some c in input.messages[_].tool_calls} }`, []string{"messages", "messages.*.tool_calls", "messages.*.tool_calls.*.id"}},
		// A count of a document list reads its length: the list must be
		// there, not its elements' members (countedLists).
		{"count of a list", `deny contains 1 if { count(input.messages) > 1 }`, []string{"messages"}},
		{"count of the calls", `deny contains n if { some m in input.messages; n := count(m.tool_calls) }`, []string{"messages", "messages.*.tool_calls"}},
		{"count of an alias of a list", `deny contains 1 if { x := input.messages; count(x) > 1 }`, []string{"messages"}},
		{"count of the messages beside a read", `deny contains n if { n := count(input.messages); input.messages[_].role == "tool" }`, []string{"messages", "messages.*.role"}},
		// A message's count is its members': every one must be there.
		{"count of a message", `deny contains 1 if { some m in input.messages; count(m) > 2 }`, msgAll},
		// A projection may stand one element of raw's lists for many.
		{"count of a raw list", `deny contains 1 if { count(input.raw.messages) > 1 }`, []string{"raw"}},
		{"count of a list compared whole too", `deny contains 1 if { x := input.messages; count(x) > 1; x == [] }`, msgAll},
		// An array comprehension only counted reads what its body reads.
		{"counted comprehension", `deny contains n if { calls := [c | some m in input.messages; m.role == "assistant"; some c in m.tool_calls]; n := count(calls) }`,
			[]string{"messages", "messages.*.role", "messages.*.tool_calls"}},
		{"counted inline comprehension", `deny contains n if { n := count([t | some t in input.tools]) }`, []string{"tools"}},
		{"counted comprehension also printed", `deny contains s if { calls := [c | some c in input.messages[_].tool_calls]; count(calls) > 0; s := sprintf("%v", [calls]) }`,
			[]string{"messages", "messages.*.tool_calls", "messages.*.tool_calls.*.arguments", "messages.*.tool_calls.*.id", "messages.*.tool_calls.*.name"}},
		{"counted set comprehension", `deny contains n if { n := count({c.name | some c in input.messages[_].tool_calls}) }`,
			[]string{"messages", "messages.*.tool_calls", "messages.*.tool_calls.*.name"}},
		{"counted comprehension of a part", `deny contains n if { n := count([c.name | some c in input.messages[_].tool_calls]) }`,
			[]string{"messages", "messages.*.tool_calls", "messages.*.tool_calls.*.name"}},
		{"every over the messages", `deny contains 1 if { every m in input.messages { m.role != "" } }`, []string{"messages", "messages.*.role"}},
		{"every over an alias", `deny contains 1 if { ms := input.messages; every m in ms { m.role != "" } }`, []string{"messages", "messages.*.role"}},
		{"element compared whole", `deny contains 1 if { some m in input.messages; m == {} }`, msgAll},
		{"with input as a part", "r if input.role == \"x\"\ndeny contains 1 if { r with input as input.messages[0] }", append([]string{}, msgAll...)},
		{"rule value", `msgs := input.messages`, msgAll},
		{"as a key", `deny contains 1 if { data.y[input.mode] }`, []string{"mode"}},
		{"a part as a key into another", `deny contains v if { k := input.mode; v := input.raw[k] }`, []string{"mode", "raw"}},
		{"else", "r := 1 if input.format == \"x\" else := 2 if input.id == \"y\"", []string{"format", "id"}},
		{"negation", `deny contains 1 if { not input.messages[0].stop_reason }`, []string{"messages", "messages.*.stop_reason"}},
		{"chained aliases", `deny contains 1 if { x := input.messages[_]; y := x; y.role == "tool" }`, []string{"messages", "messages.*.role"}},
		{"element in a list", `deny contains s if { s := sprintf("%v", [input.messages[0]]) }`, msgAll},
		{"lookup", `deny contains 1 if { input.lookup.calls == input.lookup.results }`, []string{"lookup"}},
		{"existence only", `deny contains 1 if { _ = input.messages[_].text }`, []string{"messages", "messages.*.text"}},
		{"print-free template", `deny contains x if { some m in input.messages; x := concat("", [m.role, m.text]) }`, []string{"messages", "messages.*.role", "messages.*.text"}},
		{"iterating input", `deny contains k if { some k, v in input; v == 1 }`, []string{"everything"}},
		{"index from the lookup", `deny contains i if { some i in input.lookup.tool; input.messages[i].role == "tool" }`, []string{"lookup", "messages", "messages.*.role"}},
		{"alias of a list", `deny contains 1 if { x := input.messages; x[_].text == "" }`, []string{"messages", "messages.*.text"}},
		{"type test", `deny contains 1 if { not is_object(input.raw) }`, []string{"raw"}},
		{"input inside a function", "f(i) := input.messages[i].text\ndeny contains t if { t := f(0) }", []string{"messages", "messages.*.text"}},
		{"every over a part", `deny contains 1 if { every k, v in input.messages[0].raw { k != v } }`, []string{"messages", "messages.*.raw"}},
		{"template string", "deny contains x if { some m in input.messages; x := $\"{m.text} {input.mode}\" }", []string{"messages", "messages.*.text", "mode"}},
		{"with data as input", "deny contains 1 if { data.y.z with data.y as input }", []string{"everything"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := readProbes(regoFieldSet(t, "package x\n"+c.rego))
			want := append([]string(nil), c.want...)
			sort.Strings(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("read probes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestYAMLFieldReads(t *testing.T) {
	// The names of a rule's own keys count as reads too ("id"): the
	// analysis reads words, not the rule's structure.
	cases := []struct {
		name, yaml string
		want       []string
	}{
		{"floor", `rules:
  - id: bench-floor
    given: $document
    where: {format: never-a-format}
    assert: {format: {equals: never-a-format}}
    message: unreachable`, []string{"format", "id", "profile"}}, // "id" is named: the rule's own key
		{"a message member", `rules:
  - id: r
    given: messages[*]
    where: {role: tool}
    assert: {text: {not_empty: true}}
    message: m`, []string{"id", "messages", "messages.*.role", "messages.*.text", "profile", "format"}},
		{"profiles and formats", `rules:
  - id: r
    formats: [chat]
    profiles: [export]
    given: tools[*]
    assert: {name: {not_empty: true}}
    message: m`, []string{"format", "id", "profile", "tools", "tools.*.name"}},
		{"mode", `rules:
  - id: r
    given: messages[*]
    mode: inline
    assert: {text: {not_empty: true}}
    message: m`, []string{"format", "id", "mode", "profile", "messages", "messages.*.role", "messages.*.text"}},
		{"calls", `rules:
  - id: r
    given: messages[*].tool_calls[*]
    assert: {arguments: {json: valid}}
    message: m`, []string{"format", "id", "messages", "messages.*.role", "messages.*.tool_calls", "messages.*.tool_calls.*.arguments", "messages.*.tool_calls.*.id", "profile"}},
		{"the element itself", `rules:
  - id: r
    given: messages[*]
    assert: {$: {json_schema: {type: object}}}
    message: m`, []string{"format", "id", "profile", "messages", "messages.*.raw", "messages.*.role", "messages.*.stop_reason", "messages.*.text",
			"messages.*.tool_call_id", "messages.*.tool_calls", "messages.*.tool_calls.*.arguments",
			"messages.*.tool_calls.*.id", "messages.*.tool_calls.*.name"}},
		{"the element itself, given in flow style", `rules:
  - {id: r, given: "messages[*]", assert: {$: {type: object}}, message: m}`, []string{"everything"}},
		// A "$" reads its own rule's element, not the document another
		// rule of the file is given (shapes.yaml: before, every record was
		// read whole).
		{"the element itself, another rule given the document", `rules:
  - id: r
    given: messages[*]
    assert: {$: {type: object}}
    message: m
  - id: s
    given: document
    where: {format: chat}
    message: n`, []string{"format", "id", "profile", "messages", "messages.*.raw", "messages.*.role", "messages.*.stop_reason", "messages.*.text",
			"messages.*.tool_call_id", "messages.*.tool_calls", "messages.*.tool_calls.*.arguments",
			"messages.*.tool_calls.*.id", "messages.*.tool_calls.*.name"}},
		{"a context whole", `rules:
  - id: r
    given: tools[*]
    assert: {$document: {json_schema: {type: object}}}
    message: m`, []string{"everything"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &fieldSet{names: nameSet{}}
			s.yaml([]byte(c.yaml))
			got := readProbes(s)
			want := append([]string(nil), c.want...)
			sort.Strings(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("read probes (-want +got):\n%s", diff)
			}
		})
	}
}
