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
// recording the problem; a builder then stops and reports Err.
type Lexer struct {
	Data []byte
	// Depth is the number of containers open at the current position.
	Depth int
	// ReplaceInvalid makes invalid UTF-8 inside a string decode to U+FFFD
	// for each bad byte, as encoding/json does. Without it invalid UTF-8
	// anywhere is an error: OPA values must hold valid strings.
	ReplaceInvalid bool

	buf []byte // unescaping scratch, reused from string to string

	errAt   int     // where the error is
	errMsg  string  // "" while there is none
	errKind errKind // how Err words errMsg
}

// Reset points l at data, keeping its scratch space and its mode.
func (l *Lexer) Reset(data []byte) {
	l.Data, l.Depth, l.errMsg = data, 0, ""
	l.buf = l.buf[:0]
}

// Release drops every reference to the input, and the scratch space when one
// huge string made it huge, so a pooled lexer pins little memory.
func (l *Lexer) Release() {
	l.Data, l.Depth, l.errMsg = nil, 0, ""
	if cap(l.buf) > 64<<10 {
		l.buf = nil
	}
	l.buf = l.buf[:0]
}

// Kind is the type of the value a token starts.
type Kind uint8

const (
	Invalid Kind = iota
	space        // white space before a value; Peek never returns it
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
	' ': space, '\t': space, '\n': space, '\r': space,
	'"': String, '{': Object, '[': Array, 't': True, 'f': False, 'n': Null,
	'-': Number, '0': Number, '1': Number, '2': Number, '3': Number, '4': Number,
	'5': Number, '6': Number, '7': Number, '8': Number, '9': Number,
}

// Peek skips white space from i and returns the kind of the value there and
// its index; Invalid after recording an error. It only looks at one byte:
// the method for the kind reads the token and finds what is wrong with it.
// One table lookup per byte both skips white space and classifies.
func (l *Lexer) Peek(i int) (Kind, int) {
	data := l.Data
	for ; i < len(data); i++ {
		if k := kinds[data[i]]; k != space {
			if k == Invalid {
				break
			}
			return k, i
		}
	}
	l.fail(i, "looking for beginning of value")
	return Invalid, i
}

// SkipWS returns the index of the first non-whitespace byte at or after i.
// It is small enough to be inlined, also into the lexer's small methods:
// most bytes leave at the first compare, and the four white-space bytes are
// told from the other control bytes by one bit test. Splitting out a fast
// path for the common no-whitespace case measured slower.
func SkipWS(data []byte, i int) int {
	for i < len(data) && data[i] <= ' ' && wsMask>>data[i]&1 != 0 {
		i++
	}
	return i
}

const wsMask = 1<<' ' | 1<<'\t' | 1<<'\n' | 1<<'\r'

// Literal matches lit (true, false or null) at Data[i].
func (l *Lexer) Literal(i int, lit string) int {
	if len(l.Data)-i >= len(lit) && string(l.Data[i:i+len(lit)]) == lit {
		return i + len(lit)
	}
	l.failLiteral(i, lit)
	return -1
}

// End checks that only white space follows the top-level value ending at i.
func (l *Lexer) End(i int) bool {
	if i = SkipWS(l.Data, i); i < len(l.Data) {
		l.fail(i, "after top-level value")
		return false
	}
	return true
}

// Enter enters the object or array whose '{' or '[' is at Data[i]; false
// past MaxDepth. Member or Element, finding the closing bracket, leaves it.
func (l *Lexer) Enter(i int) bool {
	if l.Depth++; l.Depth > MaxDepth {
		l.failMsg(i, "exceeded max depth")
		return false
	}
	return true
}

// Member reads from i up to the value of the object's next member: i is
// just inside the '{' (first is true) or just after the previous member's
// value. It reads the comma, the key and the colon, and returns the key's
// contents (as String does) and the index of the value, past white space.
// At the closing '}' it leaves the object: more is false and j is past it.
//
// Separator, key and colon are one call: a builder pays one call per
// member, the most frequent token in a record.
func (l *Lexer) Member(i int, first bool) (key []byte, j int, more bool) {
	data := l.Data
	i = SkipWS(data, i)
	switch {
	case i < len(data) && data[i] == ',' && !first:
		i = SkipWS(data, i+1)
	case i < len(data) && data[i] == '}':
		l.Depth--
		return nil, i + 1, false
	case !first:
		l.fail(i, "after object key:value pair")
		return nil, -1, false
	}
	if i >= len(data) || data[i] != '"' {
		l.fail(i, "looking for beginning of object key string")
		return nil, -1, false
	}
	if key, i = l.String(i); i < 0 {
		return nil, -1, false
	}
	i = SkipWS(data, i)
	if i >= len(data) || data[i] != ':' {
		l.fail(i, "after object key")
		return nil, -1, false
	}
	return key, SkipWS(data, i+1), true
}

// FirstElement reads from i, just inside an array's '[', up to its first
// element: it returns where the element starts, or, when the array is
// empty, leaves it: more is false and j is past the ']'.
func (l *Lexer) FirstElement(i int) (j int, more bool) {
	i = SkipWS(l.Data, i)
	if i < len(l.Data) && l.Data[i] == ']' {
		l.Depth--
		return i + 1, false
	}
	return i, true // Peek finds what is wrong, if anything
}

// Element reads from i, just after an element, up to the next one: past the
// comma (Peek skips the white space after it). At the closing ']' it leaves
// the array: more is false and j is past it. It is small enough to inline
// into the builders' loops.
func (l *Lexer) Element(i int) (j int, more bool) {
	i = SkipWS(l.Data, i)
	if i < len(l.Data) {
		switch l.Data[i] {
		case ',':
			return i + 1, true
		case ']':
			l.Depth--
			return i + 1, false
		}
	}
	l.fail(i, "after array element") // past the end, an unexpected end
	return -1, false
}
