package astjson

import (
	"encoding/json"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Compact writes a value as Rego's json.marshal does: compact, object keys
// sorted, through encoding/json (so <, > and & are escaped as \u003c …).
// Messages that quote a value and token counts of a value's JSON text both
// need exactly that text. A value encoding/json cannot write (a number
// beyond float64) falls back to OPA's own text of it; nil is null.
func Compact(v ast.Value) string {
	if v == nil {
		return "null"
	}
	x, err := ast.JSON(v)
	if err != nil {
		return v.String()
	}
	b, err := json.Marshal(x)
	if err != nil {
		return v.String()
	}
	return string(b)
}
