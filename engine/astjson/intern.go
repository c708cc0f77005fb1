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
	n    int
	key  [maxInternLen]byte
}

type internSlot struct {
	entry atomic.Pointer[internEntry]
	seen  atomic.Uint64 // hash of the last key that missed here
}

var internTable [internSize]internSlot

// intern returns the shared term for string b, whose hashKey is h, or nil
// if b is not cached yet; the caller then builds a term of its own.
func intern(b []byte, h uint64) *ast.Term {
	slot := &internTable[h&(internSize-1)]
	if e := slot.entry.Load(); e != nil && e.n == len(b) && string(e.key[:len(b)]) == string(b) {
		return &e.term
	}
	if slot.seen.Load() != h {
		slot.seen.Store(h)
		return nil
	}
	e := &internEntry{term: ast.Term{Value: ast.String(b)}, n: len(b)}
	copy(e.key[:], b)
	slot.entry.Store(e)
	return &e.term
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

// Key returns the shared term of the object key s, putting it in the cache
// now: a reader that looks members up by a key from Key finds the decoder's
// keys by pointer (ObjectView.Get compares pointers before strings). A key
// longer than maxInternLen, or one whose slot another key later takes, is a
// term of its own: a lookup by it then compares strings, and finds the same.
func Key(s string) *ast.Term {
	if len(s) > maxInternLen {
		return ast.StringTerm(s)
	}
	b := []byte(s)
	h := hashKey(b)
	slot := &internTable[h&(internSize-1)]
	if e := slot.entry.Load(); e != nil && e.n == len(b) && string(e.key[:len(b)]) == s {
		return &e.term
	}
	e := &internEntry{term: ast.Term{Value: ast.String(s)}, n: len(b)}
	copy(e.key[:], b)
	slot.entry.Store(e)
	return &e.term
}
