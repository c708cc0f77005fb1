package tokens

import (
	"sync"

	"github.com/cespare/xxhash/v2"
)

// A dataset repeats the same strings in example after example: the system
// prompt, the tool definitions, the roles, the names of tools. The
// tokenizer costs far more per byte than hashing, so a counter remembers
// the count of each distinct string it tokenized, keyed by the string's
// xxhash and length. Two different strings of one length share a 64-bit
// hash about once in 2^64 pairs; the table holds at most cacheEntries
// strings, so a wrong count is not a practical concern. No string
// looked up is longer than ExactBytes.
//
// The table is split in shards, each with its own lock, so the workers
// sharing a counter seldom wait on one another. A full shard is emptied:
// the strings that repeat come back at once, and the bound holds without
// bookkeeping per entry.
const (
	cacheShards     = 32
	cacheEntries    = 1 << 16 // about 2.5 MB in all
	cacheShardLimit = cacheEntries / cacheShards
	cacheMinBytes   = 2 // shorter strings are counted without a lookup
)

type cacheKey struct {
	hash uint64
	len  int
}

type cacheShard struct {
	mu sync.Mutex
	m  map[cacheKey]int32
}

type cache struct {
	shards [cacheShards]cacheShard
}

func newCache() *cache {
	c := &cache{}
	for i := range c.shards {
		c.shards[i].m = make(map[cacheKey]int32)
	}
	return c
}

// count returns the count of s, tokenizing it with exact on a miss.
func (c *cache) count(s string, exact func(string) int) int {
	if c == nil || len(s) < cacheMinBytes {
		return exact(s)
	}
	k := cacheKey{hash: xxhash.Sum64String(s), len: len(s)}
	sh := &c.shards[k.hash%cacheShards]
	sh.mu.Lock()
	n, ok := sh.m[k]
	sh.mu.Unlock()
	if ok {
		return int(n)
	}
	// Tokenize outside the lock: two workers may count one string at once,
	// and both store the same number.
	v := exact(s)
	sh.mu.Lock()
	if len(sh.m) >= cacheShardLimit {
		clear(sh.m)
	}
	sh.m[k] = int32(v)
	sh.mu.Unlock()
	return v
}
