package policy

import (
	"context"
	"fmt"
	"testing"

	"github.com/chatlint/chatlint/engine/policy/builtins"
	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// TestYAMLOperators runs one rule per condition over a message whose raw
// record has known members, and checks which conditions fail.
func TestYAMLOperators(t *testing.T) {
	record := `{"messages":[{"role":"assistant","content":"<tool_result>x</tool_result>","n":0,"list":[1],"obj":{},"nul":null}]}`
	tests := []struct {
		cond  string
		fails bool
		why   string
	}{
		{"raw.role: present", false, ""},
		{"raw.missing: present", true, "raw.missing must be present"},
		{"raw.missing: absent", false, ""},
		{"raw.role: absent", true, `raw.role must be absent (it is "assistant")`},
		{"raw.role: assistant", false, ""},
		{"raw.role: user", true, `raw.role must equal "user" (it is "assistant")`},
		{"raw.nul: {type: null}", false, ""},
		{"raw.list: {type: [object, array]}", false, ""},
		{"raw.obj: {type: array}", true, "raw.obj must be of type array (it is an object)"},
		{"raw.missing: {type: array}", true, "raw.missing must be of type array (it is missing)"},
		{"raw.missing: {type: array, optional: true}", false, ""},
		{"raw.list: {type: array, optional: true}", false, ""},
		{"raw.role: {in: [user, assistant]}", false, ""},
		{"raw.role: {in: [user]}", true, `raw.role must be one of ["user"] (it is "assistant")`},
		{"raw.list: {subset_of: [1, 2]}", false, ""},
		{"raw.list: {subset_of: [2]}", true, "raw.list must hold only elements among [2] (it is an array)"},
		{"raw.role: {subset_of: [assistant]}", true, `raw.role must hold only elements among ["assistant"] (it is "assistant")`},
		{"$document.lookup.message_keys: {subset_of: [role, content, n, list, obj, nul, weight]}", false, ""},
		{"$document.lookup.message_keys: {subset_of: [role, content]}", true, `$document.lookup.message_keys must hold only elements among ["role", "content"] (it is {"content", "list", "n", "nul", "obj"...)`},
		{"raw: {subset_of: [role, content, n, list, obj, nul, other]}", false, ""},
		{"raw: {subset_of: [role, content, n, list, obj]}", true, `raw must hold only elements among ["role", "content", "n", "list", "obj"] (it is an object)`},
		{"raw.obj: {subset_of: []}", false, ""},
		{"raw.obj: {subset_of: [1, true]}", false, ""},
		{"raw.n: {datetime: true}", false, ""},
		{"raw.role: {datetime: true}", true, "raw.role must be a date-time: invalid date-time format, expected YYYY-MM-DD, optionally with a time (THH:MM[:SS[.fraction]]) and a zone (Z, +HH:MM or -HH:MM), or a Unix time"},
		{"raw.nul: {datetime: true}", true, "raw.nul must be a date-time: null is not a date-time"},
		{"raw.missing: {datetime: true}", true, "raw.missing must be a date-time: it is missing"},
		{"raw.role: {not_equals: tool}", false, ""},
		{"raw.obj: {not_empty: true}", true, "raw.obj must not be empty (it is an object)"},
		{"raw.list: {not_empty: true}", false, ""},
		{"raw.n: {truthy: false}", false, ""},
		{"raw.list: {truthy: false}", true, "raw.list must not be truthy (it is an array)"},
		{"text: {prefix: <tool_result, suffix: </tool_result>}", false, ""},
		{"text: {contains: <tool_call>}", true, `text must contain "<tool_call>" (it is "<tool_result>x</tool_result>")`},
		{"text: {matches: '^<tool_result>.*</tool_result>$'}", false, ""},
		{"raw.list.0: {equals: 1}", false, ""},
		{"raw.list.1: present", true, "raw.list.1 must be present"},
		{"$message.role: assistant", false, ""},
		{"$document.format: chat", false, ""},
		{"$document.mode: inline", true, `$document.mode must equal "inline" (it is "structured")`},
	}
	doc := chatDoc(t, record)
	for _, tt := range tests {
		t.Run(tt.cond, func(t *testing.T) {
			src := fmt.Sprintf("rules:\n  - id: r\n    severity: error\n    description: d\n    given: messages[*]\n    assert:\n      %s\n    message: '{{failure}}'\n", tt.cond)
			e := mustCompile(t, Options{}, packOf(t, map[string]string{"r.yaml": src}))
			hits, err := e.Evaluate(context.Background(), doc)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(hits) > 0; got != tt.fails {
				t.Fatalf("fails = %v, want %v (hits %v)", got, tt.fails, hits)
			}
			if tt.fails && hits[0].Message != tt.why {
				t.Errorf("message = %q, want %q", hits[0].Message, tt.why)
			}
		})
	}
}

// TestYAMLGiven checks where each `given` path leads and what the findings
// point at.
func TestYAMLGiven(t *testing.T) {
	record := `{"messages":[{"role":"user","content":"q"},{"role":"assistant","tool_calls":[{"id":"a","function":{"name":"f","arguments":"{}"}},"oops"]}],
	  "tools":[{"type":"function","function":{"name":"f","parameters":{"type":"dict"}}}]}`
	tests := []struct {
		name, given, where, assert string
		want                       []Hit
	}{
		{
			name: "document", given: "", assert: "raw.tools.0.type: {equals: x}",
			want: []Hit{{Path: "/tools/0/type"}},
		},
		{
			name: "tools", given: "tools[*]", assert: "function.parameters.type: {equals: object}",
			want: []Hit{{Target: "/tools/0", Path: "/tools/0/function/parameters/type"}},
		},
		{
			name: "normalized tool calls", given: "messages[*].tool_calls[*]", assert: "name: {equals: g}",
			want: []Hit{{Target: "/messages/1/tool_calls/0", Path: "/messages/1/tool_calls/0"}},
		},
		{
			name: "raw tool calls", given: "messages[*].raw.tool_calls[*]", where: "$message.role: assistant", assert: "function: {type: object}",
			want: []Hit{{Target: "/messages/1", Path: "/messages/1/tool_calls/1/function"}},
		},
		{
			name: "where filters", given: "messages[*]", where: "role: user", assert: "raw.content: absent",
			want: []Hit{{Target: "/messages/0", Path: "/messages/0/content"}},
		},
	}
	doc := chatDoc(t, record)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := fmt.Sprintf("rules:\n  - id: r\n    severity: warning\n    description: d\n    given: '%s'\n    assert:\n      %s\n", tt.given, tt.assert)
			if tt.where != "" {
				src += "    where:\n      " + tt.where + "\n"
			}
			e := mustCompile(t, Options{}, packOf(t, map[string]string{"r.yaml": src}))
			hits, err := e.Evaluate(context.Background(), doc)
			if err != nil {
				t.Fatal(err)
			}
			for i := range hits {
				hits[i].Rule, hits[i].Pack, hits[i].Severity, hits[i].Message = "", "", 0, ""
			}
			if diff := cmp.Diff(tt.want, hits); diff != "" {
				t.Errorf("hits (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBuiltins(t *testing.T) {
	tests := []struct {
		query string
		want  string
	}{
		{`chatlint.truthy_keys({"a": [{"Error": "boom"}], "timeout": 0, "missing": {}}, {"error", "timeout", "missing"})`, `["/a/0/Error"]`},
		{`chatlint.truthy_keys({"incomplete": true, "x": {"error": null}}, {"error", "incomplete"})`, `["/incomplete"]`},
		{`chatlint.truthy_keys("text", {"error"})`, `[]`},
		// Pointers escape ~ and /, count array indexes past 9, and nest.
		{`chatlint.truthy_keys({"a/b": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, {"x~y": {"ERROR": 1, "error": {"missing": "yes"}}}]}, {"error", "missing"})`,
			`["/a~1b/10/x~0y/ERROR", "/a~1b/10/x~0y/error", "/a~1b/10/x~0y/error/missing"]`},
		// Keys are compared lower-cased as Unicode lower-cases them: U+0130 becomes i, U+212A (Kelvin) k;
		// U+017F (long s) stays itself.
		{`chatlint.truthy_keys({"\u0130ncomplete": 1, "\u212aey": 1, "mi\u017fsing": 1}, {"incomplete", "key", "missing"})`, `["/\u0130ncomplete", "/\u212aey"]`},
		{`chatlint.truthy_keys({"Timeout": [], "TIMEOUT": [0]}, {"TimeOut"})`, `["/TIMEOUT"]`},
		{`chatlint.json_payload(" {\"error\": 1} ")`, `{"error": 1}`},
		{`chatlint.json_payload([1])`, `[1]`},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			rs, err := rego.New(rego.Query("x := "+tt.query), rego.Capabilities(builtins.Capabilities())).Eval(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			got, _ := ast.InterfaceToValue(rs[0].Bindings["x"])
			want := ast.MustParseTerm(tt.want).Value
			if ast.Compare(got, want) != 0 {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
	for _, q := range []string{`chatlint.json_payload("not json")`, `chatlint.json_payload("{broken")`, `chatlint.json_payload(3)`} {
		rs, err := rego.New(rego.Query("x := " + q)).Eval(context.Background())
		if err != nil || len(rs) != 0 {
			t.Errorf("%s: want undefined, got %v %v", q, rs, err)
		}
	}
}

// TestToolsMemo checks that rules over tools[*] give the same answers when
// their hits come from the cache, and that a different tools array is not
// answered from it.
func TestToolsMemo(t *testing.T) {
	src := `rules:
  - id: schema
    severity: error
    description: d
    given: tools[*]
    assert:
      function: {type: object}
      function.parameters.type: {equals: object}
      function.parameters.required: {type: array, optional: true}
    message: 'tool {{name}}: {{failure}}'
`
	e := mustCompile(t, Options{}, packOf(t, map[string]string{"r.yaml": src}))
	if len(e.toolYAML) != 1 {
		t.Fatalf("rule over tools[*] is not memoized")
	}
	broken := `{"messages":[{"role":"user","content":"%s"}],"tools":[{"type":"function","function":{"name":"a","parameters":{"type":"dict","required":"x"}}},"junk"]}`
	fixed := `{"messages":[],"tools":[{"type":"function","function":{"name":"a","parameters":{"type":"object"}}}]}`
	want := []string{
		`/tools/0/function/parameters/type tool a: function.parameters.type must equal "object" (it is "dict")`,
		`/tools/0/function/parameters/required tool a: function.parameters.required must be of type array (it is "x")`,
		`/tools/1 tool : function must be of type object (it is "junk")`,
	}
	for i, rec := range []string{fmt.Sprintf(broken, "one"), fmt.Sprintf(broken, "two"), fixed, fmt.Sprintf(broken, "three")} {
		hits, err := e.Evaluate(context.Background(), chatDoc(t, rec))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range hits {
			got = append(got, h.Path+" "+h.Message)
		}
		w := want
		if rec == fixed {
			w = nil
		}
		if diff := cmp.Diff(w, got); diff != "" {
			t.Errorf("record %d (-want +got):\n%s", i, diff)
		}
	}
}
