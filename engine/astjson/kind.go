package astjson

import "github.com/open-policy-agent/opa/v1/ast"

// Kind names the JSON type of a decoded value for messages: "a string",
// "an object", "null".
func Kind(v ast.Value) string {
	switch v.(type) {
	case ast.String:
		return "a string"
	case ast.Number:
		return "a number"
	case ast.Boolean:
		return "a boolean"
	case ast.Null:
		return "null"
	case *ast.Array:
		return "an array"
	case ast.Object:
		return "an object"
	}
	return "a value"
}
