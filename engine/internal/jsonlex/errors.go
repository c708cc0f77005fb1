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

// Error constructors live here, away from the scanning loops: they are only
// reached on bad input, and keeping them out of line keeps the hot functions
// small enough to inline and schedule well. Only the first error is kept.

// fail records an "invalid character" error at Data[i]. context completes
// the sentence the way encoding/json does ("looking for beginning of value",
// "after array element", ...), so messages read the same across both.
//
//go:noinline
func (l *Lexer) fail(i int, context string) {
	if i >= len(l.Data) {
		l.eof()
		return
	}
	r, size := utf8.DecodeRune(l.Data[i:])
	if r == utf8.RuneError && size <= 1 {
		l.failMsg(i, "invalid UTF-8")
		return
	}
	l.failMsg(i, "invalid character "+strconv.QuoteRune(r)+" "+context)
}

// NotValue records what is wrong at Data[i], where Peek found no value.
//
//go:noinline
func (l *Lexer) NotValue(i int) {
	l.fail(i, "looking for beginning of value")
}

// eof records that the input ended in the middle of a value.
//
//go:noinline
func (l *Lexer) eof() {
	l.failMsg(len(l.Data), "unexpected end of input")
}

// failMsg records an error with a message of its own.
//
//go:noinline
func (l *Lexer) failMsg(i int, msg string) {
	if l.Err == nil {
		l.Err = &SyntaxError{Offset: i, Msg: msg}
	}
}

// badLiteral finds where the text at Data[i] stops matching lit.
//
//go:noinline
func (l *Lexer) badLiteral(i int, lit string) int {
	data := l.Data
	for k := 1; k < len(lit); k++ {
		if i+k >= len(data) {
			l.eof()
			return -1
		}
		if data[i+k] != lit[k] {
			l.fail(i+k, "in literal "+lit+" (expecting "+quoteByte(lit[k])+")")
			return -1
		}
	}
	return -1 // not reached: Literal matched
}

func quoteByte(c byte) string { return "'" + string(c) + "'" }

// badSeparator records what is wrong at Data[i], where a comma or close
// was expected.
//
//go:noinline
func (l *Lexer) badSeparator(i int, close byte) {
	if close == '}' {
		l.fail(i, "after object key:value pair")
	} else {
		l.fail(i, "after array element")
	}
}
