package lint

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/cespare/xxhash/v2"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// The dataset fold tells duplicate examples by a 64-bit hash of each
// record's content written canonically: a type tag, a length and the bytes
// of every value, object members in key order, the record's top-level id
// left out. Nothing is proved by the hash, so a fast non-cryptographic one
// does: two different examples of one file share an xxhash about once in
// 2^64 pairs, and the cost of that is one wrong dataset-duplicate warning.
// The canonical form is written straight into the digest, without a
// string or a term made per value.

// emptyHash is the hash of a record that is not an object.
var emptyHash = xxhash.Sum64(nil)

// contentHash is the hash of a record's content (Facts.Hash).
func contentHash(raw ast.Object) uint64 {
	h := &contentHasher{}
	h.add = h.member // one closure a record, not one an object
	h.members = h.buf[:0]
	h.d.Reset()
	h.object(raw, true)
	return h.d.Sum64()
}

type contentHasher struct {
	d       xxhash.Digest
	head    [24]byte     // a tag, a length and a colon
	num     [20]byte     // a length written out, as a value
	members []hashMember // the members of the objects being written, innermost last
	buf     [32]hashMember
	top     bool // the object being collected is the record
	add     func(k, v *ast.Term)
}

// member collects a member of the object being written.
func (h *contentHasher) member(k, v *ast.Term) {
	if s, ok := k.Value.(ast.String); ok && !(h.top && s == "id") {
		h.members = append(h.members, hashMember{string(s), v.Value})
	}
}

type hashMember struct {
	key string
	val ast.Value
}

// str writes tag, the length of s in decimal, a colon and s.
func (h *contentHasher) str(tag byte, s string) {
	b := append(h.head[:0], tag)
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, ':')
	h.d.Write(b)
	h.d.WriteString(s)
}

// count writes n as the string value of tag: str(tag, strconv.Itoa(n)).
func (h *contentHasher) count(tag byte, n int) {
	v := strconv.AppendInt(h.num[:0], int64(n), 10)
	b := append(h.head[:0], tag)
	b = strconv.AppendInt(b, int64(len(v)), 10)
	b = append(b, ':')
	h.d.Write(b)
	h.d.Write(v)
}

func (h *contentHasher) value(v ast.Value) {
	switch v := v.(type) {
	case ast.Object:
		h.object(v, false)
	case *ast.Array:
		h.count('[', v.Len())
		for i := 0; i < v.Len(); i++ {
			h.value(v.Elem(i).Value)
		}
	case ast.String:
		h.str('s', string(v))
	case ast.Number:
		h.str('n', string(v))
	case ast.Boolean:
		if v {
			h.str('b', "true")
		} else {
			h.str('b', "false")
		}
	case ast.Null:
		h.str('z', "")
	default:
		h.str('?', v.String())
	}
}

func (h *contentHasher) object(o ast.Object, top bool) {
	from := len(h.members)
	h.top = top
	if v, ok := o.(*astjson.ObjectView); ok { // members sorted below: any order
		v.ForeachMember(h.add)
	} else {
		o.Foreach(h.add)
	}
	ms := h.members[from:]
	slices.SortFunc(ms, func(a, b hashMember) int { return cmp.Compare(a.key, b.key) })
	h.count('{', len(ms))
	for i := range ms {
		m := h.members[from+i] // members may move as nested objects append
		h.str('k', m.key)
		h.value(m.val)
	}
	clear(h.members[from:])
	h.members = h.members[:from]
}
