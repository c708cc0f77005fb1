package policy

import (
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// docCache is the topdown.VirtualCache of one worker: the values of the
// rules (and function calls) evaluated for the current document, shared by
// the queries of the document's sets as the one query of the former gather
// module shared them, and emptied before the next document. OPA's own cache
// is a trie that allocates a node and a hash map per ref segment, a third of
// the fixed cost of evaluating a document; this one keeps its tables from
// document to document.
type docCache struct {
	frames []cacheFrame // frames[:depth] are live; `with` pushes and pops
	depth  int
}

var _ topdown.VirtualCache = (*docCache)(nil)

// cacheFrame maps refs to values: index gives the first entry of a ref
// hash, next chains entries with the same hash.
type cacheFrame struct {
	index   map[int]int32
	entries []cacheEntry
}

type cacheEntry struct {
	ref       ast.Ref // a copy: topdown reuses the slice it looks up with
	value     *ast.Term
	undefined bool
	next      int32 // the next entry with the same hash, or -1
}

// reset empties the cache for a new document.
func (c *docCache) reset() {
	for i := range c.depth {
		c.frames[i].reset()
	}
	c.depth = 0
	c.Push()
}

func (f *cacheFrame) reset() {
	clear(f.index)
	clear(f.entries) // no document's values stay reachable
	f.entries = f.entries[:0]
}

func (c *docCache) Push() {
	if c.depth == len(c.frames) {
		c.frames = append(c.frames, cacheFrame{})
	}
	c.frames[c.depth].reset()
	c.depth++
}

func (c *docCache) Pop() {
	c.depth--
	c.frames[c.depth].reset()
}

// find returns the index of ref's entry in the top frame, or -1.
func (c *docCache) find(ref ast.Ref, h int) int32 {
	f := &c.frames[c.depth-1]
	i, ok := f.index[h]
	if !ok {
		return -1
	}
	for ; i >= 0; i = f.entries[i].next {
		if f.entries[i].ref.Equal(ref) {
			return i
		}
	}
	return -1
}

// Get returns ref's value; (nil, true) when ref was found undefined, (nil,
// false) when it is not in the cache.
func (c *docCache) Get(ref ast.Ref) (*ast.Term, bool) {
	i := c.find(ref, ref.Hash())
	if i < 0 {
		return nil, false
	}
	e := &c.frames[c.depth-1].entries[i]
	if e.undefined {
		return nil, true
	}
	return e.value, false
}

// Put records ref's value; a nil value records ref as undefined.
func (c *docCache) Put(ref ast.Ref, value *ast.Term) {
	h := ref.Hash()
	f := &c.frames[c.depth-1]
	if i := c.find(ref, h); i >= 0 {
		// OPA's cache keeps what it had and sets the new: a value, or the
		// undefined mark beside it.
		if value != nil {
			f.entries[i].value = value
		} else {
			f.entries[i].undefined = true
		}
		return
	}
	if f.index == nil {
		f.index = map[int]int32{}
	}
	next, ok := f.index[h]
	if !ok {
		next = -1
	}
	f.index[h] = int32(len(f.entries))
	f.entries = append(f.entries, cacheEntry{ref: append(ast.Ref(nil), ref...), value: value, undefined: value == nil, next: next})
}

// Keys returns the refs with a value in the top frame (topdown's
// evaluation never asks).
func (c *docCache) Keys() []ast.Ref {
	var out []ast.Ref
	for _, e := range c.frames[c.depth-1].entries {
		if e.value != nil {
			out = append(out, e.ref)
		}
	}
	return out
}

// noBaseCache is the topdown.BaseCache of every evaluation: it keeps
// nothing. OPA's cache saves converting a base document read from the store
// to a value again; the packs' store is empty, so there is nothing to
// convert, and a cache built per query cost two allocations each.
type noBaseCache struct{}

func (noBaseCache) Get(ast.Ref) ast.Value  { return nil }
func (noBaseCache) Put(ast.Ref, ast.Value) {}

var _ topdown.BaseCache = noBaseCache{}
