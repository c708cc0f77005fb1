package repair

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/chatlint/chatlint/engine/internal/benchdata"
)

// benchInput is the chat benchmark data with one record cut short in the
// middle, so that a repair has something to drop.
func benchInput(b *testing.B) []byte {
	lines, err := benchdata.Lines("chat.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	mid := len(lines) / 2
	lines[mid] = lines[mid][:len(lines[mid])/2]
	return append(bytes.Join(lines, []byte{'\n'}), '\n')
}

// BenchmarkScan is the pass every file gets: read, split, validate.
func BenchmarkScan(b *testing.B) {
	data := benchInput(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Scan(bytes.NewReader(data), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteKept is the second pass of a file with lines to drop.
func BenchmarkWriteKept(b *testing.B) {
	data := benchInput(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := WriteKept(io.Discard, bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFile repairs a file on disk: scan, backup, rewrite, rename.
func BenchmarkFile(b *testing.B) {
	data := benchInput(b)
	p := filepath.Join(b.TempDir(), "chat.jsonl")
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		b.StopTimer()
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		r := File(p, Options{})
		if r.Outcome != Repaired {
			b.Fatalf("%+v", r)
		}
		b.StopTimer()
		os.Remove(r.Backup)
		b.StartTimer()
	}
}
