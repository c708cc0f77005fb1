package document

import (
	"bytes"
	"runtime"
	"testing"
	"unsafe"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/internal/denselines"
)

// TestMessageStructSize: a record of a million short messages holds a
// million message structs while its document is built, beside the
// document (issue 34, item 12): the struct keeps its rare members behind a
// pointer, its pointer as one term, and its flags side by side. It was 272
// bytes.
func TestMessageStructSize(t *testing.T) {
	const most = 200
	if got := unsafe.Sizeof(message{}); got > most {
		t.Errorf("message is %d bytes, want at most %d", got, most)
	}
}

// TestDenseMessagesBytesPerMessage bounds what building the document of a
// record of many short messages allocates per message, and what the
// document holds once built, with every member (fix, stats, convert) and
// with the messages pruned to views as check prunes them: the message
// structs are a part of what is allocated, the integer terms (index, turn,
// the lookup's lists) of what is held. The shared integer terms are made by
// the first build, which is not measured.
func TestDenseMessagesBytesPerMessage(t *testing.T) {
	var buf bytes.Buffer
	n, err := denselines.Write(&buf, "messages", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	v, err := astjson.Decode(bytes.TrimSpace(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	rec := v.(ast.Object)
	for _, c := range []struct {
		name         string
		opts         Options
		allocs, held float64 // at most, bytes per message
	}{
		// Measured 1,069 and 848, 470 and 249 (were 1,252 and 959, 652 and
		// 359, with a 272-byte struct and a term per integer).
		{"whole", Options{}, 1100, 880},
		{"every member", Options{Fields: NewFields(func(...string) bool { return true })}, 500, 280},
	} {
		build := func() *Document { return NewBuilder(Chat, "f.jsonl", c.opts).Add(1, rec) }
		if d := build(); d == nil || d.Messages().Len() != n {
			t.Fatalf("%s: the document does not hold %d messages", c.name, n)
		}
		runtime.GC()
		var before, built, held runtime.MemStats
		runtime.ReadMemStats(&before)
		d := build()
		runtime.ReadMemStats(&built)
		runtime.GC()
		runtime.ReadMemStats(&held)
		runtime.KeepAlive(d)
		allocs := float64(built.TotalAlloc-before.TotalAlloc) / float64(n)
		kept := (float64(held.HeapAlloc) - float64(before.HeapAlloc)) / float64(n)
		t.Logf("%s: %.0f bytes allocated per message, %.0f held", c.name, allocs, kept)
		if allocs > c.allocs {
			t.Errorf("%s: building allocates %.0f bytes per message, want at most %.0f", c.name, allocs, c.allocs)
		}
		if kept > c.held {
			t.Errorf("%s: the document holds %.0f bytes per message, want at most %.0f", c.name, kept, c.held)
		}
	}
}
