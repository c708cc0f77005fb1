package jsonl

import (
	"strings"
	"testing"
)

// TestReaderHandsOverBigLines: a line gathered in the reader's own buffer and
// bigger than handOver is handed to the caller (Owned, no Clone needed, and
// the reader keeps no copy); a short line after it is not owned.
func TestReaderHandsOverBigLines(t *testing.T) {
	big := `{"a":"` + strings.Repeat("x", 2*handOver) + `"}`
	r := NewReader(strings.NewReader(big + "\n" + `{"b":1}` + "\n" + big + "\n"))
	for i, want := range []bool{true, false, true} {
		rec, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Owned(); got != want {
			t.Errorf("record %d: Owned = %v, want %v", i+1, got, want)
		}
		if want && r.buf != nil {
			t.Errorf("record %d: the reader kept a buffer of %d bytes", i+1, cap(r.buf))
		}
		if want && string(rec.Data) != big {
			t.Errorf("record %d: wrong data", i+1)
		}
	}
}
