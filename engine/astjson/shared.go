package astjson

import (
	"sync/atomic"
	"unsafe"

	"github.com/open-policy-agent/opa/v1/ast"
)

// A projection leaves many small objects made only of shared terms: a chat
// message cut down to {"role": "user", "content": placeholder} is the same
// value in every record. Such an object (every key and value a term the
// decoder did not allocate: interned strings, the placeholder, true, false,
// null, small integers, or a shared object itself) is looked up by the
// identity of its terms and shared process-wide, so that it costs no
// allocation after its second sighting instead of four (OPA's object, its
// map, its keys and its elements). Equal pointers mean equal values, so a
// hit is always right; terms are never mutated, as for the repeated tools
// list of repeat.go. Only projected objects are shared: a whole decode
// builds every object, as before. An object a projection asks for as a
// view (Projection.View) is shared as a view: a reader that looks a
// member up in it compares keys rather than hashing them, as it does in
// the views of the objects that are not shared.

const (
	maxSharedMembers = 4
	sharedBits       = 10
	sharedSize       = 1 << sharedBits
)

type sharedEntry struct {
	n    int
	view bool
	kvs  [maxSharedMembers][2]*ast.Term
	term *ast.Term
}

type sharedSlot struct {
	entry atomic.Pointer[sharedEntry]
	seen  atomic.Uint64 // hash of the last object that missed here
}

var sharedTable [sharedSize]sharedSlot

// sharedObject returns the shared term for the object of members kvs, all
// of them shared terms, building it on its second sighting in its slot (an
// ObjectView when view is set, else OPA's object); nil when kvs is not
// cached (the caller builds the object).
func sharedObject(kvs [][2]*ast.Term, view bool) *ast.Term {
	if len(kvs) > maxSharedMembers {
		return nil
	}
	h := uint64(len(kvs))
	if view {
		h |= 1 << 8
	}
	for _, kv := range kvs {
		h = (h ^ uint64(uintptr(unsafe.Pointer(kv[0])))) * 0x9E3779B97F4A7C15
		h = (h ^ uint64(uintptr(unsafe.Pointer(kv[1])))) * 0x9E3779B97F4A7C15
	}
	h ^= h >> 29
	slot := &sharedTable[h&(sharedSize-1)]
	if e := slot.entry.Load(); e != nil && e.n == len(kvs) && e.view == view && samePairs(e.kvs[:e.n], kvs) {
		return e.term
	}
	if slot.seen.Load() != h {
		slot.seen.Store(h)
		return nil
	}
	var obj ast.Object
	if view {
		obj = NewObjectView(kvs...)
	} else {
		obj = ast.NewObject(kvs...)
	}
	e := &sharedEntry{n: len(kvs), view: view, term: ast.NewTerm(obj)}
	copy(e.kvs[:], kvs)
	slot.entry.Store(e)
	return e.term
}

func samePairs(a, b [][2]*ast.Term) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
