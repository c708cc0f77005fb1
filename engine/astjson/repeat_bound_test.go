package astjson

import (
	"strings"
	"testing"
)

// TestRepeatCacheKeepsNoHugeValue: the process-wide repeat cache takes tools
// arrays, not whole conversations: a 1 MB member decoded many times is never
// cached (it pinned two copies of a 60 MB record for the life of the run).
func TestRepeatCacheKeepsNoHugeValue(t *testing.T) {
	big := `{"messages":[{"role":"user","content":"` + strings.Repeat("x", 1<<20) + `"}]}`
	for range 3 {
		if _, err := Decode([]byte(big)); err != nil {
			t.Fatal(err)
		}
	}
	for b := range repeatCache {
		for w := range repeatCache[b] {
			if e := repeatCache[b][w].Load(); e != nil && len(e.data) > repeatMax {
				t.Errorf("the repeat cache holds a value of %d bytes, over %d", len(e.data), repeatMax)
			}
		}
	}
}
