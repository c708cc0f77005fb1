package builtins

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// The cache gives what a fresh parse gives, for valid and invalid text,
// for texts that share slots, for text too long to keep, and under
// concurrent use.
func TestTextCacheMatchesParse(t *testing.T) {
	texts := []string{`{"a": 1}`, `{not json`, `"{\"a\": 1}"`, `[1, 2]`, `null`, ``, `  `, `{"a":1} x`,
		`{"long": "` + strings.Repeat("x", textCacheMax) + `"}`}
	for i := range 3 * textCacheSlots { // more texts than slots: collisions replace entries
		texts = append(texts, fmt.Sprintf(`{"n": %d}`, i))
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 3 {
				for k := range texts {
					s := texts[(k+w+round)%len(texts)]
					got, ok := JSONText(ast.String(s))
					want, wantOK := decodeText(s)
					if ok != wantOK || ok && got.Compare(want) != 0 {
						t.Errorf("%.40q: got %v %v, want %v %v", s, got, ok, want, wantOK)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

// A text read again comes from the cache: the same value, not a new parse.
func TestTextCacheKeepsRecentParses(t *testing.T) {
	s := ast.String(`{"city": "Paris", "unit": "c"}`)
	a, _ := JSONText(s)
	b, _ := JSONText(ast.String(string([]byte(s)))) // equal content, another string
	if a.(ast.Object) == nil || fmt.Sprintf("%p", a) != fmt.Sprintf("%p", b) {
		t.Errorf("second read parsed again: %p, %p", a, b)
	}
}
