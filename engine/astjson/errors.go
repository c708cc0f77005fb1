package astjson

import (
	"fmt"

	"github.com/chatlint/chatlint/engine/internal/jsonlex"
)

// SyntaxError describes why a JSON text could not be decoded. Offset is the
// 0-based byte offset of the problem in the input. It is the lexer's error,
// worded as encoding/json words it.
type SyntaxError = jsonlex.SyntaxError

// RangeError is valid JSON holding a number OPA does not evaluate: one
// whose exponent would make arithmetic on it costly (1e999999).
// ast.InterfaceToValue refuses the same numbers.
type RangeError struct {
	Offset int
	Number string // the literal, cut short when long
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("number %s is out of the range the policy engine evaluates (byte %d)", e.Number, e.Offset+1)
}
