package tokens

import (
	"os"
	"testing"
)

// BenchmarkTokenize counts, without the cache, every distinct string of
// the JSON Lines file CHATLINT_BENCH_FILE names (skipped when unset), with
// tiktoken-go's Count and with the counter's own split and merge. Generate
// one with
//
//	go run ./internal/tools/chatlint-gen -shape dense -size 2MB -seed 1 -o /tmp/dense.jsonl
func BenchmarkTokenize(b *testing.B) {
	path := os.Getenv("CHATLINT_BENCH_FILE")
	if path == "" {
		b.Skip("CHATLINT_BENCH_FILE is not set")
	}
	set := map[string]bool{}
	collectStrings(nil, path, set)
	var texts []string
	size := int64(0)
	for s := range set {
		texts = append(texts, s)
		size += int64(len(s))
	}
	for _, enc := range Encodings {
		codec, err := Codec(enc)
		if err != nil {
			b.Fatal(err)
		}
		c, err := NewCounter(enc)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(enc+"/tiktoken-go", func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				for _, s := range texts {
					if _, err := codec.Count(s); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run(enc+"/split", func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				for _, s := range texts {
					c.tokenize(s)
				}
			}
		})
	}
}
