package spill

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
)

// TestBuffer: what is written comes back in order, from memory below the
// bound and from the temporary file above it, which leaves nothing behind.
func TestBuffer(t *testing.T) {
	defer func(n int) { Memory = n }(Memory)
	Memory = 100
	for _, n := range []int{3, 50} {
		dir := t.TempDir()
		b := &Buffer{Dir: dir}
		var want bytes.Buffer
		for i := range n {
			line := strings.Repeat(string(rune('a'+i%26)), 9) + "\n"
			b.Write([]byte(line))
			want.WriteString(line)
		}
		if got := b.Spilled(); got != (want.Len() > Memory) {
			t.Errorf("%d lines: spilled %v", n, got)
		}
		var got bytes.Buffer
		if _, err := b.WriteTo(&got); err != nil {
			t.Fatal(err)
		}
		ra, err := b.ReaderAt()
		if err != nil {
			t.Fatal(err)
		}
		all, _ := io.ReadAll(io.NewSectionReader(ra, 0, int64(want.Len())))
		if got.String() != want.String() || string(all) != want.String() {
			t.Errorf("%d lines: WriteTo gave %d bytes, ReaderAt %d, want %d", n, got.Len(), len(all), want.Len())
		}
		b.Release()
		if entries, _ := os.ReadDir(dir); len(entries) != 0 || !b.Empty() {
			t.Errorf("%d lines: left behind %v, empty %v", n, entries, b.Empty())
		}
	}
}
