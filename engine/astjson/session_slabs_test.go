package astjson

import (
	"fmt"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestSlabsShareBlocks: the lines of a session decoded in one Slabs are the
// values decoded alone, and cost less: a line alone starts a block of
// sixteen terms, of which a short line uses a few.
func TestSlabsShareBlocks(t *testing.T) {
	const n = 2000
	lines := make([][]byte, n)
	for i := range lines {
		lines[i] = fmt.Appendf(nil, `{"parentUuid":"00000000-0000-4000-8000-%012d","sessionId":"5e55a0b0-0000-4000-8000-000000000001","timestamp":"2026-01-02T00:00:%02d.000Z","type":"progress","uuid":"00000000-0000-4000-8000-%012d","n":[%d,"a long enough string"]}`, i, i%60, i+1, i)
	}
	p := &Projection{Object: true, KeepOthers: true}
	alone := make([]ast.Value, n)
	shared := make([]ast.Value, n)
	aloneBytes := allocated(func() {
		for i, l := range lines {
			v, err := DecodeProjected(l, p)
			if err != nil {
				t.Fatal(err)
			}
			alone[i] = v
		}
	})
	var s Slabs
	sharedBytes := allocated(func() {
		for i, l := range lines {
			v, err := DecodeProjectedIn(l, p, &s)
			if err != nil {
				t.Fatal(err)
			}
			shared[i] = v
		}
	})
	for i, l := range lines {
		want, _ := reference(l)
		checkSame(t, l, alone[i], want)
		checkSame(t, l, shared[i], want)
	}
	if sharedBytes*10 > aloneBytes*8 {
		t.Errorf("%d lines decoded in one Slabs allocated %d bytes, alone %d: want at most 0.8 of it", n, sharedBytes, aloneBytes)
	}
}
