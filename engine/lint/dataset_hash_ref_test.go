package lint

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/cespare/xxhash/v2"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// The fold's first content hash, kept as the reference contentHash is held
// to: the canonical form (a type tag, a length and the bytes of every
// value, object members in key order, the record's top-level id left out)
// written into one xxhash digest.

// refContentHash is the canonical form the fold hashed before dataset_hash.go:
// the reference its tests hold contentHash to (two records hash alike under
// one exactly when they do under the other).
func refContentHash(raw ast.Object) uint64 {
	h := &refHasher{}
	h.add = h.member // one closure a record, not one an object
	h.members = h.buf[:0]
	h.d.Reset()
	h.object(raw, true)
	return h.d.Sum64()
}

type refHasher struct {
	d       xxhash.Digest
	head    [24]byte    // a tag, a length and a colon
	num     [20]byte    // a length written out, as a value
	members []refMember // the members of the objects being written, innermost last
	buf     [32]refMember
	top     bool // the object being collected is the record
	add     func(k, v *ast.Term)
}

// member collects a member of the object being written.
func (h *refHasher) member(k, v *ast.Term) {
	if s, ok := k.Value.(ast.String); ok && !(h.top && s == "id") {
		h.members = append(h.members, refMember{string(s), v.Value})
	}
}

type refMember struct {
	key string
	val ast.Value
}

// str writes tag, the length of s in decimal, a colon and s.
func (h *refHasher) str(tag byte, s string) {
	b := append(h.head[:0], tag)
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, ':')
	h.d.Write(b)
	h.d.WriteString(s)
}

// count writes n as the string value of tag: str(tag, strconv.Itoa(n)).
func (h *refHasher) count(tag byte, n int) {
	v := strconv.AppendInt(h.num[:0], int64(n), 10)
	b := append(h.head[:0], tag)
	b = strconv.AppendInt(b, int64(len(v)), 10)
	b = append(b, ':')
	h.d.Write(b)
	h.d.Write(v)
}

func (h *refHasher) value(v ast.Value) {
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

func (h *refHasher) object(o ast.Object, top bool) {
	from := len(h.members)
	h.top = top
	if v, ok := o.(*astjson.ObjectView); ok { // members sorted below: any order
		v.ForeachMember(h.add)
	} else {
		o.Foreach(h.add)
	}
	ms := h.members[from:]
	slices.SortFunc(ms, func(a, b refMember) int { return cmp.Compare(a.key, b.key) })
	h.count('{', len(ms))
	for i := range ms {
		m := h.members[from+i] // members may move as nested objects append
		h.str('k', m.key)
		h.value(m.val)
	}
	clear(h.members[from:])
	h.members = h.members[:from]
}
