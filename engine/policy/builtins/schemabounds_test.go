package builtins

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// refBranches is a schema whose property x is n nested anyOf of two $refs
// to the next level: 2^n branches for the validator, in a few KB.
func refBranches(n int) string {
	var b strings.Builder
	b.WriteString(`{"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": {`)
	for i := range n {
		fmt.Fprintf(&b, `"d%d": {"anyOf": [{"$ref": "#/$defs/d%d"}, {"$ref": "#/$defs/d%d"}]}, `, i, i+1, i+1)
	}
	fmt.Fprintf(&b, `"d%d": {"type": "string"}}}`, n)
	return b.String()
}

// deepProperties is a schema of properties nested n deep.
func deepProperties(n int) string {
	return strings.Repeat(`{"type": "object", "properties": {"a": `, n) + `{}` + strings.Repeat(`}}`, n)
}

// manyProperties declares n string properties; wrongArgs gives each a number.
func manyProperties(n int) (schema, args string) {
	var s, a []string
	for i := range n {
		s = append(s, fmt.Sprintf(`"p%03d": {"type": "string"}`, i))
		a = append(a, fmt.Sprintf(`"p%03d": %d`, i, i))
	}
	return `{"type": "object", "properties": {` + strings.Join(s, ", ") + `}}`, `{` + strings.Join(a, ", ") + `}`
}

// TestSchemaBounds: a schema that would hang the validator (2^26 or 2^17
// branches, properties nested 1,600 deep) stops schema_errors and
// schema_problem at once with a *SchemaLimitError, which halts the
// evaluation of its record; a schema with many violations lists the first
// maxViolations and counts the rest.
func TestSchemaBounds(t *testing.T) {
	for _, tt := range []struct {
		name, schema, args string
		limit              string // the error's text; "" for none
	}{
		{"26 nested anyOf of two $refs", refBranches(26), `{"x": 1}`, "would take more than"},
		{"2^17 branches", refBranches(17), `{"x": 1}`, "would take more than"},
		{"properties nested 1,600 deep", deepProperties(1600), `{"a": 1}`, "nests deeper than 128 levels"},
		{"10 nested anyOf", refBranches(10), `{"x": 1}`, ""},
		{"properties nested 60 deep", deepProperties(60), `{"a": {"a": 1}}`, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := schemaErrors(rego.BuiltinContext{}, mustValue(t, tt.schema), mustValue(t, tt.args))
			if took := time.Since(start); took > 3*time.Second {
				t.Errorf("schema_errors took %v", took)
			}
			var he *rego.HaltError
			switch {
			case tt.limit == "" && err != nil:
				t.Fatalf("schema_errors: %v", err)
			case tt.limit != "" && (!errors.As(err, &he) || !strings.Contains(err.Error(), tt.limit)):
				t.Fatalf("schema_errors: error %v, want a halt saying %q", err, tt.limit)
			}
		})
	}
	if _, err := schemaProblem(rego.BuiltinContext{}, mustValue(t, deepProperties(1600))); err == nil {
		t.Errorf("schema_problem of a schema nested 1,600 deep: no error")
	}

	schema, args := manyProperties(200)
	res, err := schemaErrors(rego.BuiltinContext{}, mustValue(t, schema), mustValue(t, args))
	if err != nil {
		t.Fatal(err)
	}
	arr := res.Value.(*ast.Array)
	last := arr.Elem(arr.Len() - 1).Value.(ast.Object).Get(ast.StringTerm("msg")).Value
	if arr.Len() != maxViolations+1 || last.Compare(ast.String("and 180 more violations")) != 0 {
		t.Errorf("200 violations: %d listed, the last %v; want %d and a count of the rest", arr.Len(), last, maxViolations+1)
	}
}

// TestSchemaNumbersAsWritten: a failed bound names both numbers as the
// arguments and the schema write them, not as float64 ("got ∞, want ∞").
func TestSchemaNumbersAsWritten(t *testing.T) {
	for _, tt := range []struct{ schema, args, want string }{
		{`{"type": "object", "properties": {"x": {"maximum": 1e400}}}`, `{"x": 1e401}`, "maximum: got 1e401, want 1e400"},
		{`{"type": "object", "properties": {"x": {"minimum": 100000000000000000000001}}}`, `{"x": 100000000000000000000000}`,
			"minimum: got 100000000000000000000000, want 100000000000000000000001"},
		{`{"type": "object", "properties": {"x": {"maximum": 2.5}}}`, `{"x": 3}`, "maximum: got 3, want 2.5"},
		{`{"$defs": {"n": {"exclusiveMinimum": 0}}, "type": "object", "properties": {"x": {"items": {"$ref": "#/$defs/n"}}}}`, `{"x": [1, -0.5]}`, "exclusiveMinimum: got -0.5, want 0"},
		{`{"type": "object", "properties": {"x": {"multipleOf": 0.3}}}`, `{"x": 1}`, "multipleOf: got 1, want 0.3"},
	} {
		res, err := schemaErrors(rego.BuiltinContext{}, mustValue(t, tt.schema), mustValue(t, tt.args))
		if err != nil {
			t.Fatal(err)
		}
		arr := res.Value.(*ast.Array)
		if arr.Len() != 1 {
			t.Errorf("%s on %s: %v", tt.schema, tt.args, res)
			continue
		}
		if got := arr.Elem(0).Value.(ast.Object).Get(ast.StringTerm("msg")).Value; got.Compare(ast.String(tt.want)) != 0 {
			t.Errorf("%s on %s: %v, want %q", tt.schema, tt.args, got, tt.want)
		}
	}
}
