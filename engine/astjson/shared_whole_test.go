package astjson

import (
	"runtime"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestProjectedWholeValuesShared: a projected decode shares small objects
// of shared terms also inside a value it builds whole, as it does those it
// projects: a list of 200,000 identical content parts {"type": "text",
// "text": "a"} costs a pointer each, not an object each (the check of a
// record detection no longer hands over builds them so).
func TestProjectedWholeValuesShared(t *testing.T) {
	data := []byte(`{"content":[` + strings.TrimSuffix(strings.Repeat(`{"type":"text","text":"a"},`, 200_000), ",") + `]}`)
	p := &Projection{Object: true, KeepOthers: true}
	alloc := func(f func()) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	var v, w ast.Value
	n := alloc(func() { v, _ = DecodeProjected(data, p) })
	whole := alloc(func() { w, _ = Decode(data) })
	t.Logf("%d KB of parts: %d KB projected, %d KB whole", len(data)>>10, n>>10, whole>>10)
	if n > whole/4 {
		t.Errorf("a projected decode of %d KB of parts allocated %d KB (a whole decode %d KB)", len(data)>>10, n>>10, whole>>10)
	}
	if ast.Compare(v, w) != 0 {
		t.Errorf("the shared parts differ from the decoded ones")
	}
}
