package builtins

import (
	"errors"
	"strings"

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

// RangeText reports whether v is a string holding valid JSON that jsonText
// cannot build because it holds a number out of the policy engine's range
// (1e999999: astjson.RangeError), and the first character of its value
// ('{', '[', a digit...). Such text is JSON, as Python and JavaScript read
// it (as inf): the json tests must not call it "not JSON text".
func RangeText(v ast.Value) (byte, bool) {
	s, ok := v.(ast.String)
	if !ok {
		return 0, false
	}
	_, err := astjson.Decode([]byte(s))
	var re *astjson.RangeError
	if !errors.As(err, &re) {
		return 0, false
	}
	t := strings.TrimLeft(string(s), " \t\r\n")
	if t == "" {
		return 0, false
	}
	return t[0], true
}
