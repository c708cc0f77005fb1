package astjson

import (
	"bytes"
	"hash/maphash"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Datasets repeat large sub-documents record after record: most often the
// tools array, byte-identical across a fine-tuning set (at the top level)
// or a proxy log's requests (one level down, request.tools). Members of the
// top-level object and of the objects it holds that are large arrays or
// objects are therefore looked up by their bytes before they are decoded,
// and a value seen twice is kept, so every later record shares one
// immutable term instead of rebuilding it.
//
// A JSON value's extent is fixed by its bytes: when the input at the
// member's start holds exactly the bytes of a cached complete value, the
// member is that value. So lookup needs no scan ahead: hash a short prefix,
// find candidates, compare their bytes.

const (
	repeatMin = 256 // smaller values are cheaper to decode than to look up
	// repeatMax bounds a cached value: the cache lives as long as the
	// process, and four identical 60 MB records once pinned 120 MB in it.
	// Tools arrays, what it is for, are a few KB.
	repeatMax    = 32 << 10
	repeatPrefix = 64 // bytes hashed to find candidates
	repeatSlots  = 64 // buckets of the cache
	repeatWays   = 4  // candidates per bucket (variants of one tools list)
	seenSlots    = 1024
)

type repeatEntry struct {
	data []byte // the value's bytes, owned
	term *ast.Term
	// values is how many values building term counted (bound.go): a
	// record taking it from the cache is charged them, so that whether
	// it is over its bound does not depend on the records before it.
	values int
}

var (
	repeatSeed  = maphash.MakeSeed()
	repeatCache [repeatSlots][repeatWays]atomic.Pointer[repeatEntry]
	repeatNext  atomic.Uint32 // round-robin replacement within a bucket
	// seen remembers (prefix hash, length) of values decoded once, so only
	// values that do repeat take a place in the cache.
	seen [seenSlots]atomic.Uint64
)

func prefixHash(b []byte) uint64 {
	return maphash.Bytes(repeatSeed, b[:min(len(b), repeatPrefix)])
}

// repeated returns the cached term for the value starting at data[i], and
// the index just past it.
func repeated(data []byte, i int, h uint64) (*ast.Term, int, int, bool) {
	bucket := &repeatCache[h%repeatSlots]
	for w := range bucket {
		e := bucket[w].Load()
		if e != nil && len(data)-i >= len(e.data) && bytes.Equal(data[i:i+len(e.data)], e.data) {
			return e.term, i + len(e.data), e.values, true
		}
	}
	return nil, 0, 0, false
}

// remember records a value just decoded from data[i:j]; the second time the
// same (prefix, length) is seen the value is cached.
func remember(data []byte, i, j int, h uint64, t *ast.Term, values int) {
	key := h ^ uint64(j-i)*0x9E3779B97F4A7C15
	slot := &seen[key%seenSlots]
	if slot.Load() != key {
		slot.Store(key)
		return
	}
	e := &repeatEntry{data: bytes.Clone(data[i:j]), term: t, values: values}
	w := repeatNext.Add(1) % repeatWays
	repeatCache[h%repeatSlots][w].Store(e)
}

// memberValue parses the value of a member of the top-level object or of an
// object it holds, going through the repeat cache for large arrays and
// objects.
func (d *decoder) memberValue(i int) (*ast.Term, int) {
	data := d.Data
	if d.Depth > 2 || len(data)-i < repeatMin || (data[i] != '[' && data[i] != '{') {
		return d.value(i)
	}
	h := prefixHash(data[i:])
	if t, j, values, ok := repeated(data, i, h); ok {
		if d.left -= values; d.left < 0 && !d.more(j) {
			return d.over(j)
		}
		return t, j
	}
	left := d.left
	t, j := d.value(i)
	if t != nil && !d.carved && j-i >= repeatMin && j-i <= repeatMax {
		remember(data, i, j, h, t, left-d.left)
	}
	return t, j
}
