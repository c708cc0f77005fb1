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

// OpensObject reports whether the JSON text data starts (after white space)
// with an object. Records are objects: a line that is not one is reported
// and skipped, so callers ask this before building a value no one reads (a
// 60 MB array of zeros built whole took over a gigabyte to be refused).
func OpensObject(data []byte) bool {
	c, _ := first(data)
	return c == '{'
}

// KindOf validates data as Decode does, with the same errors, building
// nothing, and names the kind of its value in Kind's words.
func KindOf(data []byte) (string, error) {
	if _, err := DecodeProjected(data, &Projection{Stub: true}); err != nil {
		return "", err
	}
	switch c, _ := first(data); c {
	case '{':
		return "an object", nil
	case '[':
		return "an array", nil
	case '"':
		return "a string", nil
	case 't', 'f':
		return "a boolean", nil
	case 'n':
		return "null", nil
	}
	return "a number", nil
}

func first(data []byte) (byte, bool) {
	for _, c := range data {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c, true
	}
	return 0, false
}
