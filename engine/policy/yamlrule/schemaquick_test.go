package yamlrule

import (
	"testing"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/policy/builtins"
	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
)

// TestQuickSchema checks the quick form of schema_errors against the
// validator: wherever the quick form says "valid" the validator finds no
// violation, the schemas written with its keywords get one, and the
// arguments that break them are left to the validator.
func TestQuickSchema(t *testing.T) {
	const simple = `{"type":"object","properties":{"q":{"type":"string","description":"d"},"n":{"type":"integer"},"x":{"type":["number","null"]},"unit":{"type":"string","enum":["c","f"]},"tags":{"type":"array","items":{"type":"string"}},"any":true,"o":{"type":"object","additionalProperties":{"type":"boolean"}}},"required":["q"],"additionalProperties":false}`
	cases := []struct {
		schema, args string
		quick        bool // a quick form exists
		valid        bool // the quick form says valid
	}{
		{simple, `{"q":"a"}`, true, true},
		{simple, `{"q":"a","n":3,"x":null,"unit":"f","tags":["a","b"],"any":[1,{}],"o":{"a":true}}`, true, true},
		{simple, `{"q":"a","x":1.5}`, true, true},
		{simple, `{"q":"a","n":-0}`, true, true},
		{simple, `{}`, true, false},                // required
		{simple, `{"q":1}`, true, false},           // type
		{simple, `{"q":"a","n":1.0}`, true, false}, // an integer to the validator, not to the quick form
		{simple, `{"q":"a","n":1e2}`, true, false}, // likewise
		{simple, `{"q":"a","n":99999999999999999999}`, true, false},
		{simple, `{"q":"a","unit":"k"}`, true, false},     // enum
		{simple, `{"q":"a","tags":["a",2]}`, true, false}, // items
		{simple, `{"q":"a","extra":1}`, true, false},      // additionalProperties false
		{simple, `{"q":"a","o":{"a":1}}`, true, false},    // additionalProperties schema
		{`{"type":"object"}`, `{"a":1}`, true, true},
		{`{"description":"anything"}`, `{"a":1}`, true, true},
		{`{"type":"object","properties":{"a":{"type":"string","format":"date"}}}`, `{"a":"x"}`, false, false},
		{`{"type":"object","properties":{"a":{"minimum":3}}}`, `{"a":1}`, false, false},
		{`{"type":"object","properties":{"a":{"enum":[1,"x"]}}}`, `{"a":1}`, false, false},
		{`{"$schema":"http://json-schema.org/draft-04/schema#","type":"object"}`, `{}`, false, false},
		{`{"type":"object","$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/s"}}}`, `{"a":"x"}`, false, false},
		{`{"type":"object","properties":{"a":false}}`, `{}`, false, false},
		{`{"type":"object","patternProperties":{"^a":{"type":"string"}}}`, `{"ab":1}`, false, false},
	}
	for _, c := range cases {
		sv, err := astjson.Decode([]byte(c.schema))
		if err != nil {
			t.Fatal(err)
		}
		av, err := astjson.Decode([]byte(c.args))
		if err != nil {
			t.Fatal(err)
		}
		cs := builtins.Schemas.Get(sv)
		if cs.Schema == nil {
			t.Fatalf("%s: %s", c.schema, cs.Problem)
		}
		q := quickOf(cs)
		if (q != nil) != c.quick {
			t.Errorf("%s: quick form %v, want %v", c.schema, q != nil, c.quick)
			continue
		}
		got := q != nil && q.valid(av)
		if got != c.valid {
			t.Errorf("%s on %s: quick valid = %v, want %v", c.schema, c.args, got, c.valid)
		}
		errs, err := cs.Errors(av)
		if err != nil {
			t.Fatal(err)
		}
		libValid := errs.Value.(*ast.Array).Len() == 0
		if got && !libValid {
			t.Errorf("%s on %s: quick form says valid, the validator finds %v", c.schema, c.args, errs)
		}
	}
}

// TestQuickSchemaFindingsUnchanged evaluates tool-arguments-schema's let
// with and without the quick form over arguments that pass and break a
// schema, and wants the same violations.
func TestQuickSchemaFindingsUnchanged(t *testing.T) {
	src := `rules:
  - id: args
    severity: error
    description: d
    given: messages[*].tool_calls[*]
    let:
      schema_tool: {join: 'tools[*]', on: {name: name}}
      violations: {schema_errors: arguments, schema: $schema_tool.first.parameters}
    where:
      $violations: present
    cases:
      - message: '{{$violations}}'
`
	rules := compileRules(t, src)
	doc := chatDoc(t, `{"messages":[{"role":"assistant","tool_calls":[`+
		`{"id":"1","type":"function","function":{"name":"f","arguments":"{\"q\":\"a\",\"n\":2}"}},`+
		`{"id":"2","type":"function","function":{"name":"f","arguments":"{\"n\":\"2\",\"z\":1}"}},`+
		`{"id":"3","type":"function","function":{"name":"f","arguments":"{\"q\":\"a\",\"n\":2.0}"}}]}],`+
		`"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"q":{"type":"string"},"n":{"type":"integer"}},"required":["q"],"additionalProperties":false}}}]}`)
	run := func(on bool) []string {
		was := yamlShortcuts
		yamlShortcuts = on
		defer func() { yamlShortcuts = was }()
		var c Cache
		c.Reset(doc.Value)
		var msgs []string
		for _, r := range rules {
			for _, h := range r.EvalIn(doc.Value, &c, nil) {
				msgs = append(msgs, h.Message)
			}
		}
		return msgs
	}
	want := run(false)
	if len(want) != 1 {
		t.Fatalf("without the quick form: %q, want one finding (the second call)", want)
	}
	if d := cmp.Diff(want, run(true)); d != "" {
		t.Errorf("findings (-without +with the quick form):\n%s", d)
	}
}
