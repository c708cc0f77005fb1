package builtins

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

func mustValue(t *testing.T, s string) *ast.Term {
	t.Helper()
	v, err := ast.ParseTerm(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

const weatherSchema = `{"type": "object", "properties": {"city": {"type": "string"}, "unit": {"enum": ["c", "f"]}}, "required": ["city"], "additionalProperties": false}`

func TestSchemaErrors(t *testing.T) {
	for _, tt := range []struct {
		name, args string
		want       []map[string]string
	}{
		{"valid", `{"city": "Paris"}`, []map[string]string{}},
		{"missing required", `{}`, []map[string]string{{"path": "", "msg": "missing property 'city'"}}},
		{"wrong type", `{"city": 1}`, []map[string]string{{"path": "/city", "msg": "got number, want string"}}},
		{"enum", `{"city": "Paris", "unit": "k"}`, []map[string]string{{"path": "/unit", "msg": "value must be one of 'c', 'f'"}}},
		{"additional", `{"city": "Paris", "town": "x"}`, []map[string]string{{"path": "", "msg": "additional properties 'town' not allowed"}}},
		// The validator visits members in Go's map order: the errors, and the
		// names within one, come sorted, the same on every run.
		{"several", `{"unit": "k", "city": 1, "e": 1, "d": 2, "c": 3, "b": 4, "a": 5}`, []map[string]string{
			{"path": "", "msg": "additional properties 'a', 'b', 'c', 'd', 'e' not allowed"},
			{"path": "/city", "msg": "got number, want string"},
			{"path": "/unit", "msg": "value must be one of 'c', 'f'"},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for range 20 {
				res, err := schemaErrors(rego.BuiltinContext{}, mustValue(t, weatherSchema), mustValue(t, tt.args))
				if err != nil || res == nil {
					t.Fatalf("%v, %v", res, err)
				}
				var got []map[string]string
				if err := ast.As(res.Value, &got); err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(tt.want, got); d != "" {
					t.Fatalf("(-want +got):\n%s", d)
				}
			}
		})
	}
}

func TestSchemaProblem(t *testing.T) {
	for _, tt := range []struct {
		schema string
		bad    bool
	}{
		{weatherSchema, false},
		{`true`, false},
		{`{"type": "object", "properties": {"city": {"type": "str"}}}`, true},
		{`{"type": "object", "required": "city"}`, true},
		{`{"type": "object", "properties": {"c": {"pattern": "(x"}}}`, true},
		{`{"$ref": "file:///etc/passwd"}`, true}, // never read: refs to other documents are a problem
		{`[1]`, true},
	} {
		res, err := schemaProblem(rego.BuiltinContext{}, mustValue(t, tt.schema))
		if err != nil {
			t.Fatal(err)
		}
		problem := string(res.Value.(ast.String))
		if (problem != "") != tt.bad {
			t.Errorf("%s: problem %q, want bad=%v", tt.schema, problem, tt.bad)
		}
		if tt.bad {
			if _, err := schemaErrors(rego.BuiltinContext{}, mustValue(t, tt.schema), mustValue(t, `{}`)); err != nil {
				t.Error(err)
			}
			if res, _ := schemaErrors(rego.BuiltinContext{}, mustValue(t, tt.schema), mustValue(t, `{}`)); res != nil {
				t.Errorf("%s: schema_errors is defined for a broken schema", tt.schema)
			}
		}
	}
}

// A schema is compiled once per distinct content, however many records
// repeat it (each record decodes its own copy of the tools).
func TestSchemaCompiledOncePerContent(t *testing.T) {
	before := SchemaCompiles()
	other := `{"type": "object", "properties": {"q": {"type": "integer"}}}`
	for i := 0; i < 100; i++ {
		for _, s := range []string{weatherSchema, other} {
			if _, err := schemaErrors(rego.BuiltinContext{}, mustValue(t, s), mustValue(t, `{"city": "x"}`)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n := SchemaCompiles() - before; n > 2 {
		t.Errorf("compiled %d schemas for 2 distinct ones", n)
	}
}
