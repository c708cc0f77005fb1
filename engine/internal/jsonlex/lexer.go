// Package jsonlex is chatlint's one JSON lexer: it finds the tokens of a
// strict RFC 8259 text, unescapes strings and scans numbers, and words errors
// as encoding/json does. It builds no values. The two decoders build over it:
// astjson makes OPA values for the rules (the hot path of check), jsonv makes
// ordered values for the commands that rewrite records (fix, convert).
//
// The lexer is a concrete struct whose methods take the index of a token and
// return the index after it, and a builder drives it in its own recursive
// descent: no callbacks, no interfaces, so the calls are static and the
// small ones inline into the builders' loops.
package jsonlex

// MaxDepth is the deepest container nesting accepted; encoding/json uses the
// same limit, so both agree on which inputs are valid. The builders recurse,
// and this bound keeps hostile input from growing the stack without end.
const MaxDepth = 10000

// Lexer reads one JSON text, Data. Methods return -1 for an index after
// recording the first problem in Err; a builder then stops and reports Err.
type Lexer struct {
	Data []byte
	Err  *SyntaxError
	// Depth is the number of containers open at the current position.
	Depth int
	// ReplaceInvalid makes invalid UTF-8 inside a string decode to U+FFFD
	// for each bad byte, as encoding/json does. Without it invalid UTF-8
	// anywhere is an error: OPA values must hold valid strings.
	ReplaceInvalid bool

	buf []byte // unescaping scratch, reused from string to string
}

// Reset points l at data, keeping its scratch space and its mode.
func (l *Lexer) Reset(data []byte) {
	l.Data, l.Err, l.Depth = data, nil, 0
	l.buf = l.buf[:0]
}

// Release drops every reference to the input, and the scratch space when one
// huge string made it huge, so a pooled lexer pins little memory.
func (l *Lexer) Release() {
	l.Data, l.Err, l.Depth = nil, nil, 0
	if cap(l.buf) > 64<<10 {
		l.buf = nil
	}
	l.buf = l.buf[:0]
}

// Kind is the type of the value a token starts.
type Kind uint8

const (
	Invalid Kind = iota
	String
	Number
	Object
	Array
	True
	False
	Null
)

// kinds maps a value's first byte to its kind.
var kinds = [256]Kind{
	'"': String, '{': Object, '[': Array, 't': True, 'f': False, 'n': Null,
	'-': Number, '0': Number, '1': Number, '2': Number, '3': Number, '4': Number,
	'5': Number, '6': Number, '7': Number, '8': Number, '9': Number,
}

// Peek returns the kind of the value starting at Data[i]. It only looks at
// one byte: the method for the kind reads the token and finds what is wrong
// with it. For Invalid it records nothing, which keeps it small enough to
// inline into the builders' dispatch: they report it with NotValue.
func (l *Lexer) Peek(i int) Kind {
	if uint(i) < uint(len(l.Data)) {
		return kinds[l.Data[i]]
	}
	return Invalid
}

// SkipWS returns the index of the first non-whitespace byte at or after i.
// It is small enough to be inlined; splitting out a fast path for the common
// no-whitespace case measured slower.
func SkipWS(data []byte, i int) int {
	for ; i < len(data); i++ {
		if c := data[i]; c > ' ' || (c != ' ' && c != '\n' && c != '\t' && c != '\r') {
			return i
		}
	}
	return i
}

// Literal matches lit (true, false or null) at Data[i].
func (l *Lexer) Literal(i int, lit string) int {
	if len(l.Data)-i >= len(lit) && string(l.Data[i:i+len(lit)]) == lit {
		return i + len(lit)
	}
	return l.badLiteral(i, lit)
}

// End checks that only white space follows the top-level value ending at i.
func (l *Lexer) End(i int) bool {
	if i = SkipWS(l.Data, i); i < len(l.Data) {
		l.fail(i, "after top-level value")
		return false
	}
	return true
}

// Open enters the object or array whose '{' or '[' is at Data[i] and returns
// the index of its first member or element, past white space. When the
// container is empty it is closed already: empty is true and j is past the
// closing bracket.
func (l *Lexer) Open(i int, close byte) (j int, empty bool) {
	l.Depth++
	if l.Depth > MaxDepth {
		l.failMsg(i, "exceeded max depth")
		return -1, false
	}
	j = SkipWS(l.Data, i+1)
	if j < len(l.Data) && l.Data[j] == close {
		l.Depth--
		return j + 1, true
	}
	return j, false
}

// Key reads the object key at Data[i] and the colon after it, and returns
// the key's contents (as String does) and the index of the member's value,
// past white space.
func (l *Lexer) Key(i int) (key []byte, j int) {
	data := l.Data
	if i >= len(data) || data[i] != '"' {
		l.fail(i, "looking for beginning of object key string")
		return nil, -1
	}
	key, j = l.String(i)
	if j < 0 {
		return nil, -1
	}
	j = SkipWS(data, j)
	if j >= len(data) || data[j] != ':' {
		l.fail(j, "after object key")
		return nil, -1
	}
	return key, SkipWS(data, j+1)
}

// Next reads what follows a member or element ending at i, in the container
// that close ('}' or ']') ends: after a comma more is true and j is the next
// member or element, past white space; at the closing bracket the container
// is left and j is past it.
//
// The common cases, a comma or the bracket right after the value and no
// white space after a comma, are small enough to inline into the builders'
// loops; the rest goes through next.
func (l *Lexer) Next(i int, close byte) (j int, more bool) {
	if data := l.Data; i+1 < len(data) {
		if c := data[i]; c == ',' && data[i+1] > ' ' {
			return i + 1, true
		} else if c == close {
			l.Depth--
			return i + 1, false
		}
	}
	return l.next(i, close)
}

func (l *Lexer) next(i int, close byte) (j int, more bool) {
	data := l.Data
	i = SkipWS(data, i)
	if i < len(data) {
		if c := data[i]; c == ',' {
			return SkipWS(data, i+1), true
		} else if c == close {
			l.Depth--
			return i + 1, false
		}
	}
	l.badSeparator(i, close)
	return -1, false
}
