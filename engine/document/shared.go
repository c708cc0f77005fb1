package document

import (
	"sync/atomic"
	"unsafe"

	"github.com/open-policy-agent/opa/v1/ast"
)

// sharedTools maps a raw tools term, by identity, to its normalized form.
// Only raw terms seen twice are kept: identity repeats only for terms the
// decoder shares, and a term seen once would just push a useful one out.
var sharedTools identityCache

const identityWays = 8

type identityEntry struct {
	key, val *ast.Term
}

type identityCache struct {
	entries [identityWays]atomic.Pointer[identityEntry]
	seen    [64]atomic.Uintptr
	next    atomic.Uint32
}

func (c *identityCache) get(key *ast.Term) *ast.Term {
	for i := range c.entries {
		if e := c.entries[i].Load(); e != nil && e.key == key {
			return e.val
		}
	}
	return nil
}

func (c *identityCache) put(key, val *ast.Term) {
	p := uintptr(unsafe.Pointer(key))
	slot := &c.seen[(p>>4)%uintptr(len(c.seen))]
	if slot.Load() != p {
		slot.Store(p)
		return
	}
	c.entries[c.next.Add(1)%identityWays].Store(&identityEntry{key: key, val: val})
}
