package tokens

import (
	"fmt"
	"strings"
	"testing"
)

// TestCacheCountsOnce: a string a dataset repeats (a system prompt, a tool
// definition) is tokenized once, and its count is the tokenizer's.
func TestCacheCountsOnce(t *testing.T) {
	c := newCache()
	calls := 0
	exact := func(s string) int { calls++; return len(s) }
	for range 3 {
		if got := c.count("You are a helpful assistant.", exact); got != 28 {
			t.Fatalf("count = %d, want 28", got)
		}
	}
	if calls != 1 {
		t.Errorf("the tokenizer ran %d times over one string, want 1", calls)
	}
	if got := c.count("You are a helpful assistant!", exact); got != 28 || calls != 2 {
		t.Errorf("another string of the same length: count %d after %d runs, want 28 after 2", got, calls)
	}
}

// TestCacheKeepsLatest: a string whose hash takes an occupied slot
// replaces what was there, so the table stays within cacheSlots whatever
// passes, and a string met again after being replaced is counted again,
// with the tokenizer's count.
func TestCacheKeepsLatest(t *testing.T) {
	c := newCache()
	calls := 0
	exact := func(s string) int { calls++; return len(s) }
	for i := range 3 * cacheSlots {
		c.count(fmt.Sprintf("text %d", i), exact)
	}
	if calls != 3*cacheSlots {
		t.Fatalf("%d distinct strings tokenized %d times, want once each", 3*cacheSlots, calls)
	}
	kept := 0
	for i := range c.slots {
		if c.slots[i].Load() != 0 {
			kept++
		}
	}
	if kept == 0 || kept > cacheSlots {
		t.Errorf("%d slots kept, want between 1 and %d", kept, cacheSlots)
	}
	calls = 0
	last := fmt.Sprintf("text %d", 3*cacheSlots-1)
	if got := c.count(last, exact); got != len(last) || calls != 0 {
		t.Errorf("the last string: count %d after %d runs, want %d from the table", got, calls, len(last))
	}
}

// TestCachedCountsEqualTokenizer: a counter gives the tokenizer's counts
// whether a string is met for the first time or again.
func TestCachedCountsEqualTokenizer(t *testing.T) {
	c, err := NewCounter("cl100k_base")
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"user", "You are a helpful assistant.", "get_weather:Get the weather", strings.Repeat("héllo wörld ", 300), "a"}
	for round := range 2 {
		for _, s := range texts {
			if got, want := c.Text(s), c.tokenize(s); got != want {
				t.Errorf("round %d, %.20q: %d tokens, want %d", round, s, got, want)
			}
		}
	}
}

// TestPieceCacheCountsEqualMerge: a piece met again is counted from the
// rank table's piece cache (pieces.go), with the count its merge gives, the
// first time and every time after; a text counts as tiktoken-go counts it
// with the cache cold and warm.
func TestPieceCacheCountsEqualMerge(t *testing.T) {
	text := "The deployment pipeline retries flaky integration tests; supercalifragilistic words merge into several tokens. " +
		strings.Repeat("héllo wörld 12345 ", 20)
	for enc := range splitPatterns {
		c, err := NewCounter(enc)
		if err != nil {
			t.Fatal(err)
		}
		c.ranks.pieces = &pieceCache{} // cold, whatever other tests counted
		want := libraryCount(t, enc, text)
		for round := range 2 {
			if got := c.tokenize(text); got != want {
				t.Errorf("%s, round %d: %d tokens, tiktoken-go counts %d", enc, round, got, want)
			}
		}
		for _, p := range ourPieces(enc, text) {
			if len(p) <= 2 { // counted from the bytes or the table of pairs
				continue
			}
			n, ok := c.ranks.pieces.get(c.ranks.hash(p))
			if !ok {
				t.Errorf("%s %q: no count kept", enc, p)
				continue
			}
			merged := c.ranks.countScan(p)
			if len(p) > scanMax {
				merged = c.ranks.countHeap(p)
			}
			if c.ranks.rank(p) != noRank {
				merged = 1
			}
			if n != merged {
				t.Errorf("%s %q: %d tokens kept, the merge gives %d", enc, p, n, merged)
			}
		}
	}
}
