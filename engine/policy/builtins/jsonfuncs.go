package builtins

import (
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"

	"github.com/chatlint/chatlint/engine/astjson"
)

// chatlint.json_parse(s) is [v] where v is the JSON text s parsed, and
// undefined when s is not a string holding one JSON value. The value comes
// wrapped so that a rule can tell "false" and "null" from text that does not
// parse (`not chatlint.json_parse(s)`); it parses with the decoder of the hot
// path, where json.is_valid and json.unmarshal would read the text twice.
func init() {
	rego.RegisterBuiltin1(&rego.Function{
		Name: "chatlint.json_parse",
		Decl: types.NewFunction(types.Args(types.A), types.NewArray([]types.Type{types.A}, nil)),
	}, jsonParse)
}

func jsonParse(_ rego.BuiltinContext, x *ast.Term) (*ast.Term, error) {
	s, ok := x.Value.(ast.String)
	if !ok {
		return nil, nil
	}
	v, err := astjson.Decode([]byte(s))
	if err != nil {
		return nil, nil
	}
	return ast.ArrayTerm(ast.NewTerm(v)), nil
}

// jsonText parses v when it is a string holding one JSON value. Rules read
// the same arguments several times over, so the parse comes from
// parsedTexts (textcache.go) when it is recent.
func JSONText(v ast.Value) (ast.Value, bool) {
	s, ok := v.(ast.String)
	if !ok {
		return nil, false
	}
	return parsedTexts.parse(string(s))
}
