package astjson

import (
	"encoding/binary"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Object keys repeat endlessly across records ("role", "content",
// "tool_calls", ...), and so do many short string values ("user",
// "assistant", "function", "string", "object"). intern shares one immutable
// *ast.Term per such string through a direct-mapped cache: a lookup is a
// hash, one atomic load and a compare, no locks, so many goroutines can
// decode at once without contending. Writers race benignly: entries are
// immutable once published, and a lost store only costs a later miss.
//
// A string is admitted on its second sighting in a slot, not its first.
// Strings that never repeat (IDs, timestamps, paths used as keys) then cost
// one small store each instead of allocating an entry and evicting a useful
// one.
//
// Interning keys and values up to 16 bytes halves the allocations on the
// benchmark record and on real datasets; interning values up to 32 bytes
// was no better (figures in the performance log).

const (
	maxInternLen = 32
	internBits   = 12
	internSize   = 1 << internBits
)

// internEntry keeps a copy of the key's bytes next to the term, so that a
// lookup compares within the entry instead of chasing the string's pointer.
type internEntry struct {
	term ast.Term
	// hash is the term's OPA hash (ast.String's Hash), taken once: a view
	// sums its keys' hashes (ObjectView), and most keys are these.
	hash   int
	n      int
	key    [maxInternLen]byte
	pinned bool // set by Key: no other string takes the slot
}

type internSlot struct {
	entry atomic.Pointer[internEntry]
	seen  atomic.Uint64 // hash of the last key that missed here
}

var internTable [internSize]internSlot

// internEntryOf returns the cache's entry for string b, whose hashKey is h,
// or nil if b is not cached yet; the caller then builds a term of its own.
func internEntryOf(b []byte, h uint64) *internEntry {
	slot := &internTable[h&(internSize-1)]
	e := slot.entry.Load()
	if e != nil && e.n == len(b) && string(e.key[:len(b)]) == string(b) {
		return e
	}
	if e != nil && e.pinned {
		return nil
	}
	if slot.seen.Load() != h {
		slot.seen.Store(h)
		return nil
	}
	str := ast.String(b)
	ne := &internEntry{term: ast.Term{Value: str}, hash: str.Hash(), n: len(b)}
	copy(ne.key[:], b)
	// Swapped only for the entry read above: a name Key pinned meanwhile
	// keeps its slot, and this string is built apart.
	if !slot.entry.CompareAndSwap(e, ne) {
		return nil
	}
	return ne
}

// Key returns the term of member name s that the decoder gives every key s
// it decodes from now on: s is pinned in the cache, so that code which
// looks members up by the names it knows (the document builders' keys, the
// YAML rules' paths) finds them in a view by comparing pointers
// (ObjectView.Get). Where s cannot be pinned (too long, or its slot holds
// another pinned name) it is a term of its own, found by its string as
// before. Key is meant for package initialization and rule compiling, not
// per record: a name it pins stays pinned for the process.
func Key(s string) *ast.Term {
	if e := pin(s); e != nil {
		return &e.term
	}
	return ast.StringTerm(s)
}

// pin pins s in the cache (Key) and returns its entry, or nil where s
// cannot be pinned.
func pin(s string) *internEntry {
	if len(s) == 0 || len(s) > maxInternLen {
		return nil
	}
	b := make([]byte, maxInternLen) // room for hashKey's word reads
	b = b[:copy(b, s)]
	slot := &internTable[hashKey(b)&(internSize-1)]
	for {
		old := slot.entry.Load()
		if old != nil && old.n == len(b) && string(old.key[:len(b)]) == s {
			if old.pinned {
				return old
			}
		} else if old != nil && old.pinned {
			return nil
		}
		e := &internEntry{term: ast.Term{Value: ast.String(s)}, hash: ast.String(s).Hash(), n: len(b), pinned: true}
		copy(e.key[:], b)
		if slot.entry.CompareAndSwap(old, e) {
			return e
		}
	}
}

// hashKey hashes a string of at most maxInternLen bytes with a few
// overlapping 8-byte loads instead of a byte loop. A string shorter than 8
// bytes is read as one word and masked to its length: b is a slice of the
// input or of the unescape buffer, so the capacity past its end is usually
// there to read.
func hashKey(b []byte) uint64 {
	const m = 0x9E3779B97F4A7C15
	n := len(b)
	var h uint64
	switch {
	case n >= 8:
		h = binary.LittleEndian.Uint64(b)*m ^ binary.LittleEndian.Uint64(b[n-8:])
		for k := 8; k < n-8; k += 8 {
			h = (h ^ binary.LittleEndian.Uint64(b[k:])) * m
		}
	case cap(b) >= 8:
		h = binary.LittleEndian.Uint64(b[:8]) & (1<<(8*n) - 1)
	default:
		for k, c := range b {
			h |= uint64(c) << (8 * k)
		}
	}
	// Finish with a full avalanche (murmur3's fmix64): the slot is picked by
	// the low bits, and every input bit should reach them.
	h ^= uint64(n)
	h = (h ^ h>>33) * 0xff51afd7ed558ccd
	return h ^ h>>33
}
