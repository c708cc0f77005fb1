package yamlrule

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestSameValueNumbers checks sameValue's shortcut for integers against
// ast.Compare: the same number written otherwise, numbers beyond int64 and
// values of other types.
func TestSameValueNumbers(t *testing.T) {
	for _, c := range []struct {
		v, w ast.Value
	}{
		{ast.Number("1"), ast.Number("1")},
		{ast.Number("1"), ast.Number("2")},
		{ast.Number("1.0"), ast.Number("1")},
		{ast.Number("1e0"), ast.Number("1")},
		{ast.Number("-0"), ast.Number("0")},
		{ast.Number("99999999999999999999"), ast.Number("99999999999999999999")},
		{ast.Number("99999999999999999999"), ast.Number("99999999999999999998")},
		{ast.String("1"), ast.Number("1")},
		{ast.NewArray(), ast.Number("0")},
	} {
		if got, want := sameValue(c.v, c.w), ast.Compare(c.v, c.w) == 0; got != want {
			t.Errorf("sameValue(%v, %v) = %v, want %v", c.v, c.w, got, want)
		}
	}
}
