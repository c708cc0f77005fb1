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
// record of many short messages allocates per message, with every member
// (fix, stats, convert) and with the messages pruned as the default check
// packs prune them: the message structs are a part of it.
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
		name string
		opts Options
		most float64 // bytes per message
	}{
		// Measured 1,180 and 580 (were 1,252 and 652 with a 272-byte struct).
		{"whole", Options{}, 1210},
		{"every member", Options{Fields: NewFields(func(...string) bool { return true })}, 610},
	} {
		build := func() *Document { return NewBuilder(Chat, "f.jsonl", c.opts).Add(1, rec) }
		if d := build(); d == nil || d.Messages().Len() != n {
			t.Fatalf("%s: the document does not hold %d messages", c.name, n)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		build()
		runtime.ReadMemStats(&after)
		got := float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
		t.Logf("%s: %.0f bytes per message", c.name, got)
		if got > c.most {
			t.Errorf("%s: building allocates %.0f bytes per message, want at most %.0f", c.name, got, c.most)
		}
	}
}
