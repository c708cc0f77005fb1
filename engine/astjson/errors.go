package astjson

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// SyntaxError describes why a JSON text could not be decoded. Offset is the
// 0-based byte offset of the problem in the input.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s (byte %d)", e.Msg, e.Offset+1) }

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

// Error constructors live here, away from the scanning loops: they are only
// reached on bad input, and keeping them out of line keeps the hot functions
// small enough to inline and schedule well.

// fail records an "invalid character" error at data[i]. context completes the
// sentence the way encoding/json does ("looking for beginning of value",
// "after array element", ...), so messages read the same across both.
//
//go:noinline
func (d *decoder) fail(i int, context string) {
	if i >= len(d.data) {
		d.eof()
		return
	}
	r, size := utf8.DecodeRune(d.data[i:])
	if r == utf8.RuneError && size <= 1 {
		d.err = &SyntaxError{Offset: i, Msg: "invalid UTF-8"}
		return
	}
	d.err = &SyntaxError{Offset: i, Msg: "invalid character " + strconv.QuoteRune(r) + " " + context}
}

// eof records that the input ended in the middle of a value.
//
//go:noinline
func (d *decoder) eof() {
	d.err = &SyntaxError{Offset: len(d.data), Msg: "unexpected end of input"}
}

// failMsg records an error with a message of its own.
//
//go:noinline
func (d *decoder) failMsg(i int, msg string) {
	d.err = &SyntaxError{Offset: i, Msg: msg}
}
