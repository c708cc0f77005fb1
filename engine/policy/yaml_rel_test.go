package policy

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
)

// relHits compiles one YAML rule file and evaluates it over one chat record,
// returning the hits as "severity target message".
func relHits(t *testing.T, src, record string) []string {
	t.Helper()
	return yamlHitLines(t, src, chatDoc(t, record))
}

// yamlHitLines compiles one YAML rule file and evaluates it over doc,
// returning the hits as "severity target message[ @path]".
func yamlHitLines(t *testing.T, src string, doc *document.Document) []string {
	t.Helper()
	e := mustCompile(t, Options{}, packOf(t, map[string]string{"r.yaml": src}))
	hits, err := e.Evaluate(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range hits {
		s := h.Severity.String() + " " + string(h.Target) + " " + h.Message
		if h.Path != "" {
			s += " @" + h.Path
		}
		out = append(out, s)
	}
	return out
}

// A team rule written with the relational forms: each one decides something
// the element alone cannot.
func TestYAMLRelationalForms(t *testing.T) {
	calls := `{"role":"assistant","tool_calls":[{"id":"a","function":{"name":"f","arguments":"{}"}},{"id":"b","function":{"name":"f","arguments":"{}"}},{"id":"a","function":{"name":"g","arguments":"{}"}}]}`
	record := `{"messages":[{"role":"user","content":"q"},` + calls + `,
	  {"role":"tool","tool_call_id":"a","content":"{\"Error\": {\"timeout\": 3}}"},
	  {"role":"tool","tool_call_id":"b","content":"ok"},
	  {"role":"assistant","content":"<t>x</t> <t>"},
	  {"role":"tool","tool_call_id":"a","content":"late"}]}`
	tests := []struct {
		name, rule string
		want       []string
	}{{
		name: "join: results without a call in their block",
		rule: `
    given: messages[*]
    where: {role: tool, $calls.count: 0}
    let:
      calls: {join: 'messages[*].tool_calls[*]', on: {turn: $message.index, tool_call_id: id}}
    cases:
      - message: '{{q tool_call_id}} answers no call of message {{turn}}'`,
		want: []string{`error /messages/5 "a" answers no call of message 4`},
	}, {
		name: "join with order before and first",
		rule: `
    given: messages[*]
    where: {role: tool}
    let:
      earlier: {join: 'messages[*]', where: {role: tool}, order: before}
    cases:
      - when: {$earlier.count: {greater_than: 0}}
        message: '{{index}} after {{$earlier.first.index}} ({{$earlier.count}} before)'`,
		want: []string{"error /messages/3 3 after 2 (1 before)", "error /messages/5 5 after 2 (2 before)"},
	}, {
		name: "group: an id repeated within a message, with rank and first",
		rule: `
    given: messages[*].tool_calls[*]
    group: [$message.index, id]
    assert: {$group.rank: 0}
    message: 'call {{$index}} repeats call {{$group.first.$index}} ({{$group.count}} with id {{id}})'`,
		want: []string{"error /messages/1/tool_calls/2 call 2 repeats call 0 (2 with id a)"},
	}, {
		name: "join over another rule's elements, differ, severity per case",
		rule: `
    given: messages[*].tool_calls[*]
    let:
      ok: {join: 'rule:results', where: {$bad: absent}, on: {$message.index: turn}, differ: {id: tool_call_id}}
    cases:
      - when: {$ok.count: {greater_than: 0}}
        severity: warning
        message: '{{id}} has a good sibling result'
      - when: {id: b}
        message: '{{id}} alone'
  - id: results
    severity: info
    description: results that are no errors
    given: messages[*]
    where: {role: tool}
    let:
      bad: {truthy_keys: [error], of: [raw.content]}
    cases:
      - when: {$bad: present}
        message: '{{index}} flagged at {{$bad}}'`,
		want: []string{
			"warning /messages/1/tool_calls/0 a has a good sibling result",
			"error /messages/1/tool_calls/1 b alone",
			"warning /messages/1/tool_calls/2 a has a good sibling result",
			"info /messages/2 2 flagged at /Error",
		},
	}, {
		name: "unless, occurrences, same_as, not, tag_body",
		rule: `
    given: messages[*]
    where: {role: assistant}
    let:
      opens: {occurrences: '<t>', in: text}
      closes: {occurrences: '</t>', in: text}
      body: {tag_body: text, tag: t}
    unless: {$opens: {same_as: $closes}}
    cases:
      - message: '{{index}}: {{$opens}} open, {{$closes}} closed, body {{q $body}}, {{type tool_calls}}'`,
		want: []string{`error /messages/4 4: 2 open, 1 closed, body "x</t> <t>", array`},
	}, {
		name: "part_of reports under the rule's id, with a path",
		rule: `
    given: document
    where: {format: nothing}
    assert: {format: present}
  - part_of: r
    given: messages[*]
    where: {tool_call_id: {not: {in: [a]}}, role: tool}
    cases:
      - message: 'unknown id {{tool_call_id}}'
        path: '{{path}}/tool_call_id'`,
		want: []string{"error /messages/3 unknown id b @/messages/3/tool_call_id"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "rules:\n  - id: r\n    severity: error\n    description: d" + tt.rule + "\n"
			got := relHits(t, src, record)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("hits (-want +got):\n%s", diff)
			}
		})
	}
}

// part_of entries are not listed as rules of their own.
func TestYAMLPartOfIsNotListed(t *testing.T) {
	src := `rules:
  - {id: r, severity: error, description: d, given: 'messages[*]', assert: {role: present}}
  - {part_of: r, given: 'tools[*]', assert: {name: present}}
`
	e := mustCompile(t, Options{}, packOf(t, map[string]string{"r.yaml": src}))
	var ids []string
	for _, r := range e.Rules() {
		ids = append(ids, r.ID)
	}
	if diff := cmp.Diff([]string{"r"}, ids); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
}

func TestYAMLRelationalCompileErrors(t *testing.T) {
	tests := []struct{ rule, want string }{
		{"given: messages[*]\n    let: {message: {join: 'messages[*]'}}\n    cases: [{message: m}]", "let: message is a reserved name"},
		{"given: messages[*]\n    let: {x: {join: 'messages[*]', occurrences: a, in: text}}\n    cases: [{message: m}]", "want exactly one of join"},
		{"given: messages[*]\n    let: {x: {join: 'rule:nope'}}\n    cases: [{message: m}]", "no rule nope with lets"},
		{"given: messages[*]\n    let: {x: {join: 'messages[*]', where: {$y.count: 0}}}\n    cases: [{message: m}]", "the partners of a path join have no lets"},
		{"given: messages[*]\n    cases: [{when: {role: user}}]", "a case needs a message"},
		{"given: messages[*]\n    assert: {role: user}\n    cases: [{message: m}]", "assert or cases, not both"},
		{"given: messages[*]\n    let: {x: {join: 'messages[*]', order: sideways}}\n    cases: [{message: m}]", "order: want before, after"},
	}
	for _, tt := range tests {
		src := "rules:\n  - id: r\n    severity: error\n    description: d\n    " + tt.rule + "\n"
		_, err := Compile(context.Background(), []*Pack{packOf(t, map[string]string{"r.yaml": src})}, Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.rule, err, tt.want)
		}
	}
	src := "rules:\n  - {part_of: nope, given: 'messages[*]', assert: {role: present}}\n"
	if _, err := Compile(context.Background(), []*Pack{packOf(t, map[string]string{"r.yaml": src})}, Options{}); err == nil || !strings.Contains(err.Error(), "part_of: no rule nope") {
		t.Errorf("part_of an unknown rule: error %v", err)
	}
}

// A document of a format no Rego rule declares is not given to OPA: here a
// rule scoped to proxy logs writes a malformed finding, which is an error on
// a proxy-log document and never seen on a chat record.
func TestRegoSkippedOutsideDeclaredFormats(t *testing.T) {
	src := `package chatlint.team

# METADATA
# title: bad-output
# description: writes a finding whose msg is not a string
# custom:
#   id: bad-output
#   severity: error
#   formats: [proxy-log]
deny contains f if {
	f := {"rule": "bad-output", "msg": 7}
}
`
	e := mustCompile(t, Options{}, packOf(t, map[string]string{"r.rego": src}))
	if _, err := e.Evaluate(context.Background(), chatDoc(t, `{"messages":[{"role":"user","content":"q"}]}`)); err != nil {
		t.Errorf("chat record: %v, want no evaluation", err)
	}
	b := document.NewBuilder(document.ProxyLog, "s.jsonl", document.Options{})
	v, _ := ast.ParseTerm(`{"timestamp": "2024-05-01T10:00:00Z", "session_id": "s", "request": {"messages": [{"role": "user", "content": "q"}]}}`)
	b.Add(1, v.Value.(ast.Object))
	doc := b.Finish()
	_, err := e.Evaluate(context.Background(), doc)
	var bad *OutputError
	if !errors.As(err, &bad) {
		t.Errorf("proxy-log session: error %v, want the malformed finding reported", err)
	}
}

// The lookup member is built only when a rule may read it; every doubt
// counts as a read.
func TestReadsLookup(t *testing.T) {
	rego := func(body string) string {
		return "package chatlint.team\n\n# METADATA\n# title: r\n# description: d\n# custom:\n#   id: r\n#   severity: error\ndeny contains f if {\n\t" + body + "\n\tf := {\"rule\": \"r\", \"msg\": \"m\"}\n}\n"
	}
	tests := []struct {
		name  string
		files map[string]string
		want  bool
	}{
		{"rego reads other members", map[string]string{"r.rego": rego(`input.messages[_].role == "x"`)}, false},
		{"rego reads lookup", map[string]string{"r.rego": rego(`input.lookup.tool == []`)}, true},
		{"rego reads input itself", map[string]string{"r.rego": rego(`x := input; x.format == "chat"`)}, true},
		{"rego reads input[k]", map[string]string{"r.rego": rego(`some k; input[k] == 1`)}, true},
		{"rego passes input to a function", map[string]string{"r.rego": rego(`json.marshal(input) == ""`)}, true},
		{"yaml without it", map[string]string{"r.yaml": "rules:\n  - {id: r, severity: error, description: d, given: 'messages[*]', assert: {role: present}}\n"}, false},
		{"yaml naming it", map[string]string{"r.yaml": "rules:\n  - {id: r, severity: error, description: d, given: document, assert: {lookup.tool: present}}\n"}, true},
	}
	for _, tt := range tests {
		e := mustCompile(t, Options{}, packOf(t, tt.files))
		if got := e.ReadsLookup(); got != tt.want {
			t.Errorf("%s: ReadsLookup = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// A let that depends on itself, directly or through a join, is an error of
// the document's evaluation, not an endless recursion.
func TestYAMLLetCycles(t *testing.T) {
	record := `{"messages":[{"role":"user","content":"q"},{"role":"tool","tool_call_id":"a","content":"x"}]}`
	for name, rule := range map[string]string{
		"value": `
    given: messages[*]
    let:
      a: {cases: [{when: {$a: present}, text: x}]}
    cases: [{when: {$a: present}, message: m}]`,
		"join": `
    given: messages[*]
    let:
      same: {join: 'rule:r', where: {$same.count: 0}}
    cases: [{when: {$same.count: 0}, message: m}]`,
	} {
		src := "rules:\n  - id: r\n    severity: error\n    description: d" + rule + "\n"
		e := mustCompile(t, Options{}, packOf(t, map[string]string{"r.yaml": src}))
		_, err := e.Evaluate(context.Background(), chatDoc(t, record))
		if err == nil || !strings.Contains(err.Error(), "depend") {
			t.Errorf("%s: error %v, want one about a let that depends on itself", name, err)
		}
	}
}
