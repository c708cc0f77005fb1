// Package astjson decodes JSON bytes straight into OPA ast.Value.
package astjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"
)

// SyntaxError describes why a JSON text could not be decoded. Offset is the
// 0-based byte offset of the problem in the input.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s (byte %d)", e.Msg, e.Offset+1) }

// Decode parses one JSON value (surrounded by optional whitespace) into an
// ast.Value. Invalid UTF-8 anywhere in the input is an error.
//
// TEMPORARY: this is the slow reference path via encoding/json; it will be
// replaced by a hand-written decoder.
func Decode(data []byte) (ast.Value, error) {
	if !utf8.Valid(data) {
		return nil, &SyntaxError{Offset: 0, Msg: "invalid UTF-8"}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, &SyntaxError{Offset: int(dec.InputOffset()), Msg: err.Error()}
	}
	if dec.More() {
		return nil, &SyntaxError{Offset: int(dec.InputOffset()), Msg: "unexpected data after JSON value"}
	}
	return ast.InterfaceToValue(v)
}
