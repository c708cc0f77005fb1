package tokens

import "sync/atomic"

// Text repeats its words: a piece the split gives (" the", " function",
// "ing") comes back again and again, while the rank table it is looked up
// in is megabytes wide, so each lookup waits on memory, and a piece of
// several tokens is merged again every time. The rank table keeps the count
// of each piece it merged in a small direct-mapped table of its own,
// indexed by the piece's hash, which it computes for the lookup anyway: a
// piece met before costs the hash and one read of a table that stays in the
// processor's cache. A slot holds the upper bits of the hash and the count,
// in one word the workers read and write atomically; a piece whose hash
// takes a slot replaces what was there. Two different pieces agree on the
// slot and the upper bits about once in 2^56 pairs, so a wrong count is not
// a practical concern (as for the cache of strings, cache.go).
const (
	pieceSlots     = 1 << 16 // 512 KB
	pieceCountBits = 24      // counts up to 2^24-1; a piece that merges into more is not kept
	pieceCountMask = 1<<pieceCountBits - 1
)

type pieceCache struct {
	slots [pieceSlots]atomic.Uint64
}

// get returns the count kept for the piece of hash h.
func (c *pieceCache) get(h uint64) (int, bool) {
	v := c.slots[h&(pieceSlots-1)].Load()
	if v != 0 && v&^pieceCountMask == h&^pieceCountMask {
		return int(v & pieceCountMask), true
	}
	return 0, false
}

// put keeps the count n of the piece of hash h.
func (c *pieceCache) put(h uint64, n int) {
	if n <= 0 || n > pieceCountMask {
		return
	}
	c.slots[h&(pieceSlots-1)].Store(h&^pieceCountMask | uint64(n))
}
