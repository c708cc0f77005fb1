package fix

import (
	"bytes"
	"context"
	"testing"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/internal/benchdata"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/runner"
)

// BenchmarkFix measures fix's whole per-record path on all cores (read,
// decode, normalize, evaluate the openai-tools pack, apply, re-evaluate the
// changed records, write the bytes in order) next to check's with the
// integrity pack on the same data: fix must be at least half as fast.
func BenchmarkFix(b *testing.B) {
	lines, err := benchdata.Lines("chat.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	data := append(bytes.Join(lines, []byte{'\n'}), '\n')
	packs, err := builtin.All()
	if err != nil {
		b.Fatal(err)
	}
	byName := map[string]*policy.Pack{}
	for _, p := range packs {
		byName[p.Name] = p
	}
	compile := func(name string) *policy.Engine {
		e, err := policy.Compile(context.Background(), []*policy.Pack{byName[name]}, policy.Options{})
		if err != nil {
			b.Fatal(err)
		}
		return e
	}
	input := []runner.Input{{Name: "bench.jsonl", Reader: nil}}

	b.Run("fix", func(b *testing.B) {
		r := &runner.Runner{Engine: compile("openai-tools")}
		b.SetBytes(int64(len(data)))
		var out bytes.Buffer
		for b.Loop() {
			out.Reset()
			input[0].Reader = bytes.NewReader(data)
			changed := 0
			type done struct {
				recs    []jsonl.Record
				changed bool
			}
			_, errs := runner.Each(context.Background(), r, input, func() func(runner.Job) done {
				ev := r.Engine.NewEvaluator() // one per worker
				return func(j runner.Job) done {
					if j.Format == "" {
						return done{recs: j.Records}
					}
					o, err := Run(context.Background(), []*policy.Evaluator{ev}, j.Records, Options{Format: j.Format, File: j.File})
					if err != nil {
						return done{recs: j.Records}
					}
					return done{recs: o.Records, changed: o.AnyChange()}
				}
			}, func(d done) {
				if d.changed {
					changed++
				}
				for _, rec := range d.recs {
					out.Write(rec.Data)
					out.WriteString(rec.End)
				}
			})
			if len(errs) > 0 || out.Len() == 0 {
				b.Fatal(errs)
			}
		}
	})
	b.Run("check", func(b *testing.B) {
		r := &runner.Runner{Engine: compile("integrity")}
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			input[0].Reader = bytes.NewReader(data)
			if _, errs := r.Run(context.Background(), input, func(finding.Finding) {}); len(errs) > 0 {
				b.Fatal(errs)
			}
		}
	})
}
