package tokens

import (
	"sync/atomic"

	"github.com/cespare/xxhash/v2"
)

// A dataset repeats the same strings in example after example: the system
// prompt, the tool definitions, the roles, the names of tools. The
// tokenizer costs far more per byte than hashing, so a counter remembers
// the count of each distinct string it tokenized, by the string's xxhash.
//
// Most strings of a dataset are met once (each example's own messages), so
// what a lookup costs on a miss matters as much as a hit: the table is
// direct-mapped, as the rank table's piece cache is (pieces.go), with no
// lock, no map to grow and nothing to empty. A slot holds the upper bits of
// the hash and the count in one word the workers read and write
// atomically; a string whose hash takes a slot replaces what was there, so
// the table is bounded by construction. Two different strings agree on the
// slot and the upper bits about once in 2^57 pairs, so a wrong count is not
// a practical concern. No string looked up is longer than ExactBytes, so
// no count exceeds the bits a slot keeps for it.
const (
	cacheSlots     = 1 << 17 // 1 MB
	cacheCountBits = 24      // counts up to 2^24-1; a string that tokenizes into more is not kept
	cacheCountMask = 1<<cacheCountBits - 1
	cacheMinBytes  = 2 // shorter strings are counted without a lookup
)

type cache struct {
	slots [cacheSlots]atomic.Uint64
}

func newCache() *cache { return &cache{} }

// count returns the count of s, tokenizing it with exact on a miss. Two
// workers may count one string at once, and both store the same number.
func (c *cache) count(s string, exact func(string) int) int {
	if c == nil || len(s) < cacheMinBytes {
		return exact(s)
	}
	h := xxhash.Sum64String(s)
	slot := &c.slots[h&(cacheSlots-1)]
	if v := slot.Load(); v != 0 && v&^cacheCountMask == h&^cacheCountMask {
		return int(v & cacheCountMask)
	}
	n := exact(s)
	if n > 0 && n <= cacheCountMask {
		slot.Store(h&^cacheCountMask | uint64(n))
	}
	return n
}
