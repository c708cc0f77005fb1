package builtins

import (
	"github.com/chatlint/chatlint/engine/internal/py"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// Date-time builtins: what a data contract means by "a date-time" is more than
// Rego's time.parse_rfc3339_ns accepts (date-only, minutes-only, a space
// separator, offsets without a colon, Unix times as numbers or numeric
// strings), and a regex cannot reject February 30.
func init() {
	rego.RegisterBuiltin1(&rego.Function{
		Name: "chatlint.datetime_valid",
		Decl: types.NewFunction(types.Args(types.A), types.B),
	}, func(_ rego.BuiltinContext, x *ast.Term) (*ast.Term, error) {
		return ast.BooleanTerm(DateTimeProblem(x.Value) == ""), nil
	})
	rego.RegisterBuiltin1(&rego.Function{
		Name: "chatlint.datetime_problem",
		Decl: types.NewFunction(types.Args(types.A), types.S),
	}, func(_ rego.BuiltinContext, x *ast.Term) (*ast.Term, error) {
		return ast.StringTerm(DateTimeProblem(x.Value)), nil
	})
}

// DateTimeProblem returns "" when v is an accepted date-time, else why not:
// a string or number as pydantic reads a datetime (py.ParseDateTime), which
// is what the contract's reference validator checks.
func DateTimeProblem(v ast.Value) string {
	switch v := v.(type) {
	case ast.String:
		_, why := py.ParseDateTime(string(v))
		return why
	case ast.Number:
		f, ok := v.Float64()
		if !ok {
			return "number out of range for a Unix time"
		}
		_, why := py.UnixDateTime(f)
		return why
	case ast.Boolean:
		return "a boolean is not a date-time"
	case ast.Null:
		return "null is not a date-time"
	case *ast.Array:
		return "an array is not a date-time"
	case ast.Object:
		return "an object is not a date-time"
	}
	return "not a date-time"
}
