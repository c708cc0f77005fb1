package jsonl

import (
	"bytes"
	"io"
	"testing"

	"github.com/chatlint/chatlint/engine/internal/benchdata"
)

func BenchmarkReader(b *testing.B) {
	lines, err := benchdata.Lines("chat.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	data := append(bytes.Join(lines, []byte{'\n'}), '\n')
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		r := NewReader(bytes.NewReader(data))
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			}
		}
	}
}
