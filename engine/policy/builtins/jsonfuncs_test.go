package builtins

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
)

func TestJSONParse(t *testing.T) {
	for in, want := range map[string]string{
		`"{\"a\": 1}"`: `[{"a": 1}]`,
		`"false"`:      `[false]`,
		`"null"`:       `[null]`,
		`"\"x\""`:      `["x"]`,
		`"{not json"`:  ``,
		`""`:           ``,
		`{"a": 1}`:     ``, // not a string
	} {
		got, err := jsonParse(rego.BuiltinContext{}, mustValue(t, in))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case want == "" && got != nil:
			t.Errorf("%s: %v, want undefined", in, got)
		case want != "" && (got == nil || got.Value.Compare(mustValue(t, want).Value) != 0):
			t.Errorf("%s: %v, want %s", in, got, want)
		}
	}
}
