package astjson

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

func TestCompact(t *testing.T) {
	tests := []struct {
		in   string // Rego term text
		want string
	}{
		{`{"b": 1, "a": [true, null, "x"]}`, `{"a":[true,null,"x"],"b":1}`},
		{`"<a & b>"`, `"\u003ca \u0026 b\u003e"`},
		{`1.5`, `1.5`},
		{`{}`, `{}`},
	}
	for _, tc := range tests {
		if got := Compact(ast.MustParseTerm(tc.in).Value); got != tc.want {
			t.Errorf("Compact(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
	if got := Compact(nil); got != "null" {
		t.Errorf("Compact(nil) = %s", got)
	}
}
