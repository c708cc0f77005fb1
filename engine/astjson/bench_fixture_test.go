package astjson

import (
	"testing"

	"github.com/chatlint/chatlint/engine/internal/benchdata"
)

// BenchmarkDecodeBenchChat decodes every line of fixtures/bench/chat.jsonl,
// the records scripts/bench measures check on: generated conversations whose
// IDs and texts do not repeat, unlike BenchmarkDecode's one record.
func BenchmarkDecodeBenchChat(b *testing.B) {
	lines, err := benchdata.Lines("chat.jsonl")
	if err != nil {
		b.Skip(err)
	}
	var size int64
	for _, l := range lines {
		size += int64(len(l))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lines {
			if _, err := Decode(l); err != nil {
				b.Fatal(err)
			}
		}
	}
}
