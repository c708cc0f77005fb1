package document

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/internal/benchdata"
)

// BenchmarkAdapters measures normalization alone: records are decoded
// before the timer starts.
func BenchmarkAdapters(b *testing.B) {
	chat, err := benchdata.Lines("chat.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	proxy, err := benchdata.Lines("proxy-log.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	inputs := []struct {
		format Format
		lines  [][]byte
	}{
		{Chat, chat},
		{Contract, benchdata.Contract(chat)},
		{ProxyLog, proxy},
		{PiSession, benchdata.PiSession(chat[0])},
	}
	for _, in := range inputs {
		var recs []ast.Object
		size := 0
		for _, l := range in.lines {
			v, err := astjson.Decode(l)
			if err != nil {
				b.Fatal(err)
			}
			recs = append(recs, v.(ast.Object))
			size += len(l) + 1
		}
		b.Run(string(in.format), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				bl := NewBuilder(in.format, "bench.jsonl", Options{})
				for i, r := range recs {
					bl.Add(i+1, r)
				}
				bl.Finish()
			}
		})
	}
}
