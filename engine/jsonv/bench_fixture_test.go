package jsonv

import (
	"testing"

	"github.com/chatlint/chatlint/engine/internal/benchdata"
)

// BenchmarkDecodeBenchChat decodes every line of fixtures/bench/chat.jsonl,
// the records scripts/bench measures check on: generated conversations whose
// IDs and texts do not repeat, unlike BenchmarkDecode's one record.
func BenchmarkDecodeBenchChat(b *testing.B) {
	benchdata.DecodeLines(b, "chat.jsonl", func(l []byte) error { _, err := Decode(l); return err })
}
