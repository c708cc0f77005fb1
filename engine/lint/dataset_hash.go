package lint

import (
	"math/bits"

	"github.com/cespare/xxhash/v2"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// The dataset fold tells duplicate examples by a 64-bit hash of each
// record's content: two records are the same example when they agree with
// the record's top-level id left out, members taken in any order, every
// value with its type and its text as read. Nothing is proved by the hash,
// so a fast non-cryptographic one does: two different examples of one file
// share a hash about once in 2^64 pairs, and the cost of that is one wrong
// dataset-duplicate warning.
//
// Each value is hashed on its own and the hashes combined, so that nothing
// is sorted or written out: a string or a number is the xxhash of its text
// mixed with its type's constant; a list mixes each element's hash with its
// position and sums them; an object sums each member's hash mixed with its
// key's, a sum that does not depend on the members' order. Every sum is
// mixed again with its count and its kind, so a list is told from an object
// and the bounds of nested values count. The hash was a digest of the
// record's members sorted by key; TestContentHashAgreesWithSortedForm holds
// the two to the same verdicts.

// emptyHash is the hash of a record that is not an object.
var emptyHash = xxhash.Sum64(nil)

// The constants that tell the kinds of values apart (random odd numbers).
const (
	kindString  = 0x9e3779b97f4a7c15
	kindNumber  = 0xc2b2ae3d27d4eb4f
	kindTrue    = 0x165667b19e3779f9
	kindFalse   = 0x27d4eb2f165667c5
	kindNull    = 0x85ebca77c2b2ae63
	kindArray   = 0xff51afd7ed558ccd
	kindObject  = 0xc4ceb9fe1a85ec53
	kindOther   = 0x94d049bb133111eb
	kindKey     = 0xbf58476d1ce4e5b9
	kindElement = 0xd6e8feb86659fd93
)

// mix is MurmurHash3's 64-bit finalizer: a bijection whose every output bit
// depends on every input bit.
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// contentHash is the hash of a record's content (Facts.Hash).
func contentHash(raw ast.Object) uint64 {
	h := &contentHasher{}
	h.add = h.member // one closure a record, not one an object
	return h.object(raw, true)
}

type contentHasher struct {
	sum uint64 // the members of the object being hashed, summed
	n   int    // and counted
	top bool   // that object is the record
	add func(k, v *ast.Term)
}

// text is the hash of a string or a number's text.
func text(kind uint64, s string) uint64 {
	return mix(xxhash.Sum64String(s) ^ kind)
}

// member adds a member of the object being hashed.
func (h *contentHasher) member(k, v *ast.Term) {
	s, ok := k.Value.(ast.String)
	if !ok || h.top && s == "id" {
		return
	}
	sum, n, top := h.sum, h.n, h.top
	hv := h.value(v.Value)
	h.sum, h.n, h.top = sum, n, top
	h.sum += mix(bits.RotateLeft64(text(kindKey, string(s)), 17) ^ hv)
	h.n++
}

func (h *contentHasher) value(v ast.Value) uint64 {
	switch v := v.(type) {
	case ast.Object:
		return h.object(v, false)
	case *ast.Array:
		var sum uint64
		n := v.Len()
		for i := range n {
			sum += mix(h.value(v.Elem(i).Value) + uint64(i+1)*kindElement)
		}
		return mix(mix(sum^kindArray) + uint64(n))
	case ast.String:
		return text(kindString, string(v))
	case ast.Number:
		return text(kindNumber, string(v))
	case ast.Boolean:
		if v {
			return kindTrue
		}
		return kindFalse
	case ast.Null:
		return kindNull
	default:
		return text(kindOther, v.String())
	}
}

func (h *contentHasher) object(o ast.Object, top bool) uint64 {
	h.sum, h.n, h.top = 0, 0, top
	if v, ok := o.(*astjson.ObjectView); ok { // members summed: any order
		v.ForeachMember(h.add)
	} else {
		o.Foreach(h.add)
	}
	return mix(mix(h.sum^kindObject) + uint64(h.n))
}
