package fix

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/engine/spill"
)

// TestSpool: rejects past the memory limit go to a temporary file, and are
// appended in order; nothing is left behind.
func TestSpool(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "out.jsonl.rejects.jsonl")
	if err := os.WriteFile(dest, []byte("earlier run\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSpool(dest)
	line := strings.Repeat("x", 1000) + "\n"
	n := spill.Memory/len(line) + 500
	for range n {
		s.Write([]byte(line))
	}
	if !s.Spilled() {
		t.Fatalf("%d bytes not spilled to a temporary file", n*len(line))
	}
	if _, err := s.appendTo(dest, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(dest)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	if want := "earlier run\n" + strings.Repeat(line, n); got != want {
		t.Errorf("got %d bytes, want %d", len(got), len(want))
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}
