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

// TestCacheBounded: however many distinct strings pass, the table keeps at
// most cacheEntries.
func TestCacheBounded(t *testing.T) {
	c := newCache()
	for i := range 3 * cacheEntries {
		c.count(fmt.Sprintf("text %d", i), func(s string) int { return 1 })
	}
	n := 0
	for i := range c.shards {
		n += len(c.shards[i].m)
	}
	if n > cacheEntries {
		t.Errorf("%d entries kept, want at most %d", n, cacheEntries)
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
