package tokens

import (
	"sync/atomic"
	"unsafe"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Most records of a dataset repeat one tools list, and the decoder gives
// them one normalized term for it (document's shared tools), so a counter
// keeps the count of a list it met twice, by the list's identity: a record
// that repeats it then costs no lookup of its members, no string joined and
// no hash of them. The count is replayed only where the list's texts all fit
// the example's exact budget, as they did when it was counted, so the
// example's count is the one counting the list again would give.

const toolsWays = 8

// toolsCount is the count of one tools list: what tools returned, and the
// tokens and bytes of its texts that the budget took.
type toolsCount struct {
	tools               *ast.Array
	n, textTokens, size int
}

type toolsCache struct {
	entries [toolsWays]atomic.Pointer[toolsCount]
	seen    [64]atomic.Uintptr // lists met once, by address: kept only when met again
	next    atomic.Uint32
}

func (c *toolsCache) get(ts *ast.Array) *toolsCount {
	for i := range c.entries {
		if e := c.entries[i].Load(); e != nil && e.tools == ts {
			return e
		}
	}
	return nil
}

// put keeps the count of a list met before. An address in seen is only
// compared, never read: a list gone and another at its address is at worst
// kept once on its first sight, with its own count.
func (c *toolsCache) put(e *toolsCount) {
	p := uintptr(unsafe.Pointer(e.tools))
	slot := &c.seen[(p>>4)%uintptr(len(c.seen))]
	if slot.Load() != p {
		slot.Store(p)
		return
	}
	c.entries[c.next.Add(1)%toolsWays].Store(e)
}
