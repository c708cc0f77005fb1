package fix

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/internal/benchdata"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/policy"
)

// FuzzBuiltinPacks runs the built-in cleanup packs (each alone, and both
// together) over any record or session: their rules must never conflict or
// keep changing a record, and a second run must change nothing.
func FuzzBuiltinPacks(f *testing.F) {
	cases, _ := filepath.Glob(filepath.Join(benchdata.Root(), "fixtures/fix/*/input.jsonl"))
	formats, _ := filepath.Glob(filepath.Join(benchdata.Root(), "fixtures/formats/*.jsonl"))
	cases = append(cases, formats...)
	for _, c := range cases {
		if b, err := os.ReadFile(c); err == nil {
			f.Add(uint8(0), string(b))
			f.Add(uint8(1), string(b))
			f.Add(uint8(2), string(b))
		}
	}
	packs, err := builtin.Cleanup()
	if err != nil {
		f.Fatal(err)
	}
	var engines []*policy.Engine
	for _, p := range packs {
		e, err := policy.Compile(context.Background(), []*policy.Pack{p}, policy.Options{})
		if err != nil {
			f.Fatal(err)
		}
		engines = append(engines, e)
	}
	// Each pack alone, and openai-tools then transcript as stages.
	stages := [][]*policy.Engine{engines[:1], engines[1:], engines}
	f.Fuzz(func(t *testing.T, which uint8, data string) {
		var recs []jsonl.Record
		rd := jsonl.NewReader(bytes.NewReader([]byte(data)))
		for {
			r, err := rd.Next()
			if err != nil {
				break
			}
			r.Data = bytes.Clone(r.Data)
			recs = append(recs, r)
		}
		if len(recs) == 0 || len(recs) > 50 {
			return
		}
		// The format is detected as check and fix detect it; a per-record
		// format gets one record.
		format := document.Chat
		if v, err := astjson.Decode(recs[0].Data); err == nil {
			if o, ok := v.(ast.Object); ok {
				if f, ok := document.Detect(o); ok {
					format = f
				}
			}
		}
		if !format.PerFile() {
			recs = recs[:1]
		}
		var evs []*policy.Evaluator
		for _, e := range stages[int(which)%len(stages)] {
			evs = append(evs, e.NewEvaluator())
		}
		out, err := Run(context.Background(), evs, recs, Options{Format: format, File: "f"})
		var pe *PolicyError
		var ke *KeptError
		var ue *UnfixableError
		var ur *UnreadError
		if errors.As(err, &pe) || errors.As(err, &ke) || errors.As(err, &ue) || errors.As(err, &ur) {
			// A record a rule asks to leave as it was is left so; a format
			// fix cannot rewrite is refused; a record its format's reader
			// cannot read (no message has a role) is left with a note.
			return
		}
		if err != nil {
			t.Fatalf("packs %d: %v", which%3, err)
		}
		again, err := Run(context.Background(), evs, out.Records, Options{Format: format, File: "f"})
		if err != nil {
			t.Fatalf("second run: %v", err)
		}
		if again.AnyChange() {
			t.Fatalf("packs %d: a second run changed the output: %+v", which%3, again.Applied)
		}
	})
}
