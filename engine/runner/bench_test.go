package runner

import (
	"bytes"
	"context"
	"testing"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/internal/benchdata"
	"github.com/chatlint/chatlint/engine/policy"
)

// BenchmarkCheck measures the whole check path (read, decode, normalize,
// evaluate, order findings) on all cores, with the default packs and with
// no rules at all (the floor).
func BenchmarkCheck(b *testing.B) {
	lines, err := benchdata.Lines("chat.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	data := append(bytes.Join(lines, []byte{'\n'}), '\n')
	builtin, err := builtin.Packs()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		packs []*policy.Pack
	}{{"default", builtin}, {"floor", nil}} {
		e, err := policy.Compile(context.Background(), c.packs, policy.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			r := &Runner{Engine: e}
			for b.Loop() {
				_, errs := r.Run(context.Background(), []Input{{Name: "bench.jsonl", Reader: bytes.NewReader(data)}}, func(finding.Finding) {})
				if len(errs) > 0 {
					b.Fatal(errs)
				}
			}
		})
	}
}
