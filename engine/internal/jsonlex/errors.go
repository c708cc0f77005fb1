package jsonlex

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

// Errors are recorded as an offset and a phrase, two stores, and worded only
// when asked for: a call on the error path would cost every method that can
// fail its chance to be inlined into the builders' loops (a call weighs 57
// of the inliner's budget of 80).

// fail records an "invalid character" error at Data[i]. context completes
// the sentence the way encoding/json does ("looking for beginning of value",
// "after array element", ...), so messages read the same across both.
// Past the end of the input it is an unexpected end instead.
func (l *Lexer) fail(i int, context string) {
	l.errAt, l.errMsg, l.errKind = i, context, errInvalid
}

// errKind tells how Err words an error.
type errKind uint8

const (
	errInvalid errKind = iota // errMsg is the context of an invalid character
	errWhole                  // errMsg is the message
	errLiteral                // errMsg is a literal that Data[errAt:] does not match
)

// failMsg records an error with a message of its own.
func (l *Lexer) failMsg(i int, msg string) {
	l.errAt, l.errMsg, l.errKind = i, msg, errWhole
}

// failLiteral records that the text at Data[i] is not the literal lit; Err
// finds where it stops matching.
func (l *Lexer) failLiteral(i int, lit string) {
	l.errAt, l.errMsg, l.errKind = i, lit, errLiteral
}

// eof records that the input ended in the middle of a value.
func (l *Lexer) eof() { l.failMsg(len(l.Data), "unexpected end of input") }

// Failed reports whether the lexer has met an error.
func (l *Lexer) Failed() bool { return l.errMsg != "" }

// Err returns the error the lexer met, worded as encoding/json words it, or
// nil.
func (l *Lexer) Err() *SyntaxError {
	switch {
	case l.errMsg == "":
		return nil
	case l.errKind == errLiteral:
		return l.literalErr()
	case l.errKind == errWhole:
		return &SyntaxError{Offset: l.errAt, Msg: l.errMsg}
	case l.errAt >= len(l.Data):
		return &SyntaxError{Offset: len(l.Data), Msg: "unexpected end of input"}
	}
	r, size := utf8.DecodeRune(l.Data[l.errAt:])
	if r == utf8.RuneError && size <= 1 {
		return &SyntaxError{Offset: l.errAt, Msg: "invalid UTF-8"}
	}
	return &SyntaxError{Offset: l.errAt, Msg: "invalid character " + strconv.QuoteRune(r) + " " + l.errMsg}
}

func quoteByte(c byte) string { return "'" + string(c) + "'" }

// literalErr words a failLiteral: where the text at errAt stops matching the
// literal errMsg.
func (l *Lexer) literalErr() *SyntaxError {
	data, i, lit := l.Data, l.errAt, l.errMsg
	k := 1
	for k < len(lit) && i+k < len(data) && data[i+k] == lit[k] {
		k++
	}
	if i+k >= len(data) {
		return &SyntaxError{Offset: len(data), Msg: "unexpected end of input"}
	}
	l.fail(i+k, "in literal "+lit+" (expecting "+quoteByte(lit[k])+")")
	return l.Err()
}

// Stop records that the builder gives up at Data[i] for a reason of its own
// (astjson's bound on the values one record builds): the lexer is then
// failed as after an error, so the builder unwinds the way it does on one,
// and the builder words the reason itself.
func (l *Lexer) Stop(i int) { l.failMsg(i, "stopped") }
