package yamlrule

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/google/go-cmp/cmp"
)

// TestKeyIndex: each gives the positions of a hash in order, the keys with
// an absent value left out, below and beyond the scan's size, reused after
// reset, and stops when asked.
func TestKeyIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var x keyIndex
	for _, n := range []int{0, 1, keyIndexScan, keyIndexScan + 1, 1000, 3, 5000} {
		x.reset()
		x.reserve(n / (1 + n%3)) // announced, too few, or none
		hashes := make([]uint64, n)
		oks := make([]bool, n)
		for i := range hashes {
			hashes[i] = uint64(rng.IntN(n/4 + 1)) // repeated hashes
			oks[i] = rng.IntN(8) != 0
			x.add(hashes[i], oks[i])
		}
		for h := uint64(0); h <= uint64(n/4+1); h++ {
			var want []int
			for i := range hashes {
				if hashes[i] == h && oks[i] {
					want = append(want, i)
				}
			}
			var got []int
			x.each(h, func(i int) bool { got = append(got, i); return true })
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("n=%d hash %d (-want +got):\n%s", n, h, diff)
			}
			if len(want) > 1 {
				got = got[:0]
				x.each(h, func(i int) bool { got = append(got, i); return false })
				if diff := cmp.Diff(want[:1], got); diff != "" {
					t.Fatalf("n=%d hash %d, stopping at the first (-want +got):\n%s", n, h, diff)
				}
			}
		}
	}
}

// TestElemIsSmall: an element of a partner set, a shared walk or a rule's
// elements holds its value and its indexes, not a copy of its walk's scope
// (168 bytes), which every element of a long session or of a message of
// 800,000 calls held in each set.
func TestElemIsSmall(t *testing.T) {
	if n := unsafe.Sizeof(elem{}); n > 48 {
		t.Errorf("an element is %d bytes, want at most 48", n)
	}
}

// TestKeyHashAgreesWithSameValue: values a partner key compares equal get
// the same hash, whatever the text of a number.
func TestKeyHashAgreesWithSameValue(t *testing.T) {
	var vs []ast.Value
	for _, n := range []string{"0", "1", "1.0", "1e0", "10", "1e1", "100.000", "4661", "4661.0", "4.661e3",
		"123456789012345", "1234567890123456", "1.234567890123456e15", "99999999999999999999", "-3", "-3.0", "0.5", "5e-1", "1e999"} {
		vs = append(vs, ast.Number(n))
	}
	vs = append(vs, ast.InternedValue(0), ast.InternedValue(4661), ast.String("1"), ast.String("call_1"), ast.String(""),
		ast.Boolean(true), ast.Null{})
	for _, a := range vs {
		for _, b := range vs {
			if sameValue(a, b) && keyHash(a) != keyHash(b) {
				t.Errorf("%v and %v are the same value with hashes %d and %d", a, b, keyHash(a), keyHash(b))
			}
		}
	}
	if keyHash(ast.Number("4661")) != uint64(ast.Number("4661").Hash()) {
		t.Error("an integer's hash is not the value ast.Number.Hash gives it")
	}
}
