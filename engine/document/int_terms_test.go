package document

import (
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestIntTermsAreTheIntegers: a shared integer term is the integer's term,
// at the edges of OPA's interned range, of a chunk and of the shared range,
// asked for by several goroutines at once; one integer is one term.
func TestIntTermsAreTheIntegers(t *testing.T) {
	ns := []int{-1, 0, 1, 511, 512, 513, intChunk - 1, intChunk, intChunk + 1, 1_000_003, maxSharedInt - 1, maxSharedInt, maxSharedInt + 7}
	var wg sync.WaitGroup
	got := make([][]*ast.Term, 8)
	for g := range got {
		wg.Go(func() {
			for _, n := range ns {
				got[g] = append(got[g], intTerm(n))
			}
		})
	}
	wg.Wait()
	for k, n := range ns {
		want := ast.IntNumberTerm(n)
		for g := range got {
			if !got[g][k].Equal(want) || got[g][k].Location != nil {
				t.Errorf("intTerm(%d) = %v, want %v", n, got[g][k], want)
			}
		}
		if n >= 0 && n < maxSharedInt && got[0][k] != got[len(got)-1][k] {
			t.Errorf("intTerm(%d): two terms for one integer", n)
		}
	}
}
