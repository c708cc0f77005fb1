package astjson

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"slices"
	"strconv"

	"github.com/chatlint/chatlint/engine/internal/jsonlex"
	"github.com/open-policy-agent/opa/v1/ast"
)

// A value that a rule only compares with the same path of another element
// (a YAML same_as: integrity's message-repeated compares a message's raw
// content and tool calls with the previous message's) need not be built to
// be compared: a stand-in holding a digest of it gives the same answers. A
// Projection's Digest makes one (project.go):
//
//   - a non-empty array becomes [mark, "<digest>"], a non-empty object
//     {mark: "<digest>"}, where mark is a term no decoded value holds, so a
//     stand-in is told from a record's value by identity, never by text;
//   - an empty array or object, and any scalar, is kept as it is.
//
// Kind, emptiness and truthiness are the value's, so the shape tests a rule
// may also make (type, present, not_empty, truthy) get the value's answers;
// two stand-ins of one projection are equal exactly when their values are
// (ast.Compare says 0), and Equal compares a stand-in with a value built
// whole.
//
// The digest is SHA-256, cut to 128 bits, of a canonical form: object
// members sorted by key (a key given twice keeps its last value, as Decode
// keeps it), strings unescaped, numbers as their exact value (1, 1.0, 1e0
// and 10e-1 are one number; integers of any length exactly). OPA compares
// numbers exactly, but for one case: two non-integral literals written with
// trailing zeros ("0.10", "1.50"), one of more than 15 significant digits,
// compare as float64s, and that equality is not transitive, so no digest
// can keep it. A record holding such a literal inside a value a Digest
// applies to is decoded again without stand-ins (decodeBounded): a stand-in
// never holds one, and a number compared with one that is not so written is
// compared exactly.

// digestMark is the first element of an array's stand-in and the key of an
// object's: a term of its own, which no decoded value shares (the decoder's
// strings are its own or interned, never this one).
var digestMark = ast.StringTerm("\u2026digest")

// digestSize is the bytes of the digest kept (128 bits).
const digestSize = 16

type digestSum [digestSize]byte

// Canonical form, each value self-delimiting: n, t, f; d len number; s len
// bytes; a container inside another as h and its digest. A container's
// digest is that of a, its elements' forms, ]; or of o, its member count,
// then each member's key (len bytes) and value's form, keys sorted.
const (
	tagNull   = 'n'
	tagTrue   = 't'
	tagFalse  = 'f'
	tagNumber = 'd'
	tagString = 's'
	tagSum    = 'h'
	tagArray  = 'a'
	tagEnd    = ']'
	tagObject = 'o'
)

// standIn builds the stand-in of the value at Data[i], of kind k, validating
// it as skip does: a scalar as it is, an empty container as it is, any other
// container as its digest.
func (d *decoder) standIn(i int, k jsonlex.Kind) (*ast.Term, int) {
	if k != jsonlex.Array && k != jsonlex.Object {
		return d.value(i)
	}
	var sum digestSum
	empty, j := d.digestContainer(i, k, &sum)
	if j < 0 {
		return nil, j
	}
	switch {
	case k == jsonlex.Array && empty:
		return d.alloc.term(ast.NewArray()), j
	case empty:
		return d.alloc.term(ast.NewObject()), j
	}
	return d.alloc.term(standInValue(k == jsonlex.Array, sum)), j
}

func standInValue(array bool, sum digestSum) ast.Value {
	s := ast.StringTerm(hex.EncodeToString(sum[:]))
	if array {
		return ast.NewArray(digestMark, s)
	}
	return ast.NewObject([2]*ast.Term{digestMark, s})
}

// standInSum is the digest a stand-in holds; ok is false for any other value.
func standInSum(v ast.Value) (sum digestSum, ok bool) {
	var s *ast.Term
	switch x := v.(type) {
	case *ast.Array:
		if x.Len() == 2 && x.Elem(0) == digestMark {
			s = x.Elem(1)
		}
	case ast.Object:
		if x.Len() == 1 {
			x.Foreach(func(k, v *ast.Term) {
				if k == digestMark {
					s = v
				}
			})
		}
	}
	if s == nil {
		return sum, false
	}
	str, isStr := s.Value.(ast.String)
	if !isStr {
		return sum, false
	}
	n, err := hex.Decode(sum[:], []byte(str))
	return sum, err == nil && n == digestSize
}

// digestContainer reads the array or object at Data[i] (its first byte, of
// kind k) and puts its digest in sum; empty says it has no element or
// member. It drives the lexer as skip does: the same errors, depth limit
// and refused numbers.
func (d *decoder) digestContainer(i int, k jsonlex.Kind, sum *digestSum) (empty bool, j int) {
	h := newHashCanon()
	if k == jsonlex.Array {
		j, empty = d.digestArray(i, h)
	} else {
		j, empty = d.digestObject(i, h)
	}
	if j < 0 {
		return false, j
	}
	h.sum(sum)
	return empty, j
}

// digestValue writes the canonical form of the value at Data[i] (after
// white space) to w and returns the index just past it.
func (d *decoder) digestValue(i int, w *canon) int {
	k, i := d.Peek(i)
	switch k {
	case jsonlex.String:
		s, j := d.String(i)
		if j >= 0 {
			writeString(w, s)
		}
		return j
	case jsonlex.Object, jsonlex.Array:
		var sum digestSum
		_, j := d.digestContainer(i, k, &sum)
		if j >= 0 {
			w.byte1(tagSum)
			w.Write(sum[:])
		}
		return j
	case jsonlex.Number:
		j, form := d.Number(i)
		if j < 0 {
			return j
		}
		d.inRange(i, j, form)
		lit := d.Data[i:j]
		if floatForm(lit) {
			d.inexact = true
		}
		writeNumber(w, lit)
		return j
	case jsonlex.True:
		w.byte1(tagTrue)
		return d.Literal(i, "true")
	case jsonlex.False:
		w.byte1(tagFalse)
		return d.Literal(i, "false")
	case jsonlex.Null:
		w.byte1(tagNull)
		return d.Literal(i, "null")
	}
	return -1
}

// canon receives a canonical form: into a hash, through a buffer, or into
// bytes kept (an object member's value, to be sorted). It is a concrete type
// so that what is written to it does not escape to the heap per value.
type canon struct {
	h   hash.Hash // nil: keep the bytes in buf
	buf []byte
}

func (c *canon) Write(p []byte) {
	c.buf = append(c.buf, p...)
	c.flush(false)
}

func (c *canon) byte1(b byte) {
	c.buf = append(c.buf, b)
	c.flush(false)
}

func (c *canon) uvarint(n uint64) {
	c.buf = binary.AppendUvarint(c.buf, n)
}

// flush hands the buffer to the hash once it is large, or at the end.
func (c *canon) flush(end bool) {
	if c.h != nil && (end || len(c.buf) >= 8<<10) {
		c.h.Write(c.buf)
		c.buf = c.buf[:0]
	}
}

func newHashCanon() *canon { return &canon{h: sha256.New(), buf: make([]byte, 0, 256)} }

// sum is the digest of what was written to a hashing canon.
func (c *canon) sum(out *digestSum) {
	c.flush(true)
	var b [sha256.Size]byte
	copy(out[:], c.h.Sum(b[:0]))
}

func (d *decoder) digestArray(i int, h *canon) (int, bool) {
	if !d.Enter(i) {
		return -1, false
	}
	h.byte1(tagArray)
	j, more := d.FirstElement(i + 1)
	empty := !more
	for more {
		end := d.digestValue(j, h)
		if end < 0 {
			return end, false
		}
		if j, more = d.Element(end); j < 0 {
			return j, false
		}
	}
	h.byte1(tagEnd)
	return j, empty
}

// member is an object member's key and its value's canonical form, kept to
// be sorted.
type member struct {
	key, form []byte
}

func (d *decoder) digestObject(i int, h *canon) (int, bool) {
	if !d.Enter(i) {
		return -1, false
	}
	var ms []member
	key, j, more := d.Member(i+1, true)
	for more {
		k := bytes.Clone(key) // the lexer's buffer is reused by the next string
		var sink canon
		end := d.digestValue(j, &sink)
		if end < 0 {
			return end, false
		}
		ms = append(ms, member{k, sink.buf})
		if key, j, more = d.Member(end, false); j < 0 {
			return j, false
		}
	}
	writeMembers(h, ms)
	return j, len(ms) == 0
}

// writeMembers writes the canonical form of an object of members ms (in
// their order in the text) to h: a key given twice keeps its last value.
func writeMembers(h *canon, ms []member) {
	slices.SortStableFunc(ms, func(a, b member) int { return bytes.Compare(a.key, b.key) })
	n := 0
	for i := range ms {
		if i+1 < len(ms) && bytes.Equal(ms[i].key, ms[i+1].key) {
			continue // a later one of the same key follows (stable sort)
		}
		ms[n] = ms[i]
		n++
	}
	ms = ms[:n]
	h.byte1(tagObject)
	h.uvarint(uint64(len(ms)))
	for _, m := range ms {
		h.uvarint(uint64(len(m.key)))
		h.Write(m.key)
		h.Write(m.form)
	}
}

func writeString(w *canon, s []byte) {
	w.byte1(tagString)
	w.uvarint(uint64(len(s)))
	w.Write(s)
}

// writeNumber writes the number's tag, then its canonical form after its
// length, built in place at the end of w's buffer.
func writeNumber(w *canon, lit []byte) {
	w.byte1(tagNumber)
	at := len(w.buf)
	w.buf = canonicalNumber(w.buf, lit)
	n := len(w.buf) - at
	var b [binary.MaxVarintLen64]byte
	k := binary.PutUvarint(b[:], uint64(n))
	w.buf = append(w.buf, b[:k]...) // room for the length, then shift
	copy(w.buf[at+k:], w.buf[at:at+n])
	copy(w.buf[at:], b[:k])
	w.flush(false)
}

// canonicalNumber appends the exact value of the JSON number lit to dst as
// [-]digits e exponent, the digits without leading or trailing zeros ("0"
// for zero, of either sign): two literals of the same value give the same
// bytes.
func canonicalNumber(dst, lit []byte) []byte {
	neg := len(lit) > 0 && lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	mant, exp := lit, []byte(nil)
	if k := bytes.IndexAny(lit, "eE"); k >= 0 {
		mant, exp = lit[:k], lit[k+1:]
	}
	intPart, frac := mant, []byte(nil)
	if k := bytes.IndexByte(mant, '.'); k >= 0 {
		intPart, frac = mant[:k], mant[k+1:]
	}
	// The exponent of the last digit: the literal's exponent less the
	// fraction's digits. A literal's exponent is bounded by what OPA
	// accepts (numberInRange); its text is not, so it is summed as a
	// decimal string only when it would not fit.
	e, ok := smallExponent(exp)
	start := len(dst)
	if neg {
		dst = append(dst, '-')
	}
	digits := len(dst)
	for _, part := range [][]byte{intPart, frac} {
		for _, c := range part {
			if c == '0' && len(dst) == digits {
				continue // a leading zero
			}
			dst = append(dst, c)
		}
	}
	if len(dst) == digits {
		return append(dst[:start], '0')
	}
	trailing := 0
	for len(dst) > digits+1 && dst[len(dst)-1] == '0' {
		dst = dst[:len(dst)-1]
		trailing++
	}
	dst = append(dst, 'e')
	if ok {
		return strconv.AppendInt(dst, e-int64(len(frac))+int64(trailing), 10)
	}
	// An exponent beyond int64 (the record is refused as out of range,
	// but its digest is still computed before that is known): its text,
	// with the shift beside it.
	dst = append(dst, exp...)
	dst = append(dst, '~')
	return strconv.AppendInt(dst, int64(trailing)-int64(len(frac)), 10)
}

// smallExponent parses an exponent's text ([+-]digits) when it fits in
// 60 bits; nil is 0.
func smallExponent(exp []byte) (int64, bool) {
	if len(exp) == 0 {
		return 0, true
	}
	neg := exp[0] == '-'
	if exp[0] == '-' || exp[0] == '+' {
		exp = exp[1:]
	}
	exp = bytes.TrimLeft(exp, "0")
	if len(exp) > 17 {
		return 0, false
	}
	var n int64
	for _, c := range exp {
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// floatForm reports whether OPA's NumberCompare may compare the literal as a
// float64 rather than exactly: a literal with a fraction that ends in zeros
// (or a dot) and is not an integer once they are trimmed ("0.10", "1.50"),
// as NumberCompare decides it.
func floatForm(lit []byte) bool {
	if bytes.IndexByte(lit, '.') < 0 {
		return false
	}
	t := bytes.TrimRight(lit, ".0")
	return len(t) != len(lit) && bytes.IndexByte(t, '.') >= 0
}

// valueDigest is the digest of a decoded value's canonical form, as
// digestContainer gives it for the value's text; ok is false for a value
// JSON cannot hold (a set, a reference). A stand-in inside v counts as its
// value.
func valueDigest(v ast.Value) (sum digestSum, ok bool) {
	if s, isStandIn := standInSum(v); isStandIn {
		return s, true
	}
	h := newHashCanon()
	switch x := v.(type) {
	case *ast.Array:
		h.byte1(tagArray)
		for i := 0; i < x.Len(); i++ {
			if !writeValue(h, x.Elem(i).Value) {
				return sum, false
			}
		}
		h.byte1(tagEnd)
	case ast.Object:
		ms := make([]member, 0, x.Len())
		ok := true
		x.Foreach(func(k, v *ast.Term) {
			key, isStr := k.Value.(ast.String)
			var sink canon
			if !isStr || !writeValue(&sink, v.Value) {
				ok = false
				return
			}
			ms = append(ms, member{[]byte(key), sink.buf})
		})
		if !ok {
			return sum, false
		}
		writeMembers(h, ms)
	default:
		return sum, false
	}
	h.sum(&sum)
	return sum, true
}

// writeValue writes the canonical form of v to w, as digestValue writes it
// for v's text.
func writeValue(w *canon, v ast.Value) bool {
	switch x := v.(type) {
	case ast.Null:
		w.byte1(tagNull)
	case ast.Boolean:
		if x {
			w.byte1(tagTrue)
		} else {
			w.byte1(tagFalse)
		}
	case ast.Number:
		writeNumber(w, []byte(x))
	case ast.String:
		writeString(w, []byte(x))
	default:
		sum, ok := valueDigest(v)
		if !ok {
			return false
		}
		w.byte1(tagSum)
		w.Write(sum[:])
	}
	return true
}

// Equal reports whether a and b are equal values (ast.Compare gives 0) where
// either may hold stand-ins (Projection.Digest): a stand-in is equal to a
// value whose digest it holds. Values without stand-ins compare as
// ast.Compare compares them; neither may hold an ObjectView.
func Equal(a, b ast.Value) bool {
	sa, aStands := standInSum(a)
	sb, bStands := standInSum(b)
	switch {
	case aStands && bStands:
		return sa == sb
	case aStands || bStands:
		if aStands {
			a, b = b, a
		} else {
			sa = sb
		}
		// a is a value built whole, b a stand-in with digest sa; a value
		// is of the stand-in's kind, or unequal.
		if _, isArr := b.(*ast.Array); isArr {
			if _, ok := a.(*ast.Array); !ok {
				return false
			}
		} else if _, ok := a.(ast.Object); !ok {
			return false
		}
		s, ok := valueDigest(a)
		return ok && s == sa
	}
	switch x := a.(type) {
	case *ast.Array:
		y, ok := b.(*ast.Array)
		if !ok || x.Len() != y.Len() {
			return false
		}
		for i := 0; i < x.Len(); i++ {
			if !Equal(x.Elem(i).Value, y.Elem(i).Value) {
				return false
			}
		}
		return true
	case ast.Object:
		y, ok := b.(ast.Object)
		if !ok || x.Len() != y.Len() {
			return false
		}
		same := true
		x.Foreach(func(k, v *ast.Term) {
			if !same {
				return
			}
			w := y.Get(k)
			same = w != nil && Equal(v.Value, w.Value)
		})
		return same
	}
	return ast.Compare(a, b) == 0
}
