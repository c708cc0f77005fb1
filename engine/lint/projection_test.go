package lint

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/internal/testinputs"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/internal/sweep"
)

// TestProjectedDecodeSameDocuments: decoding only what the builder reads
// (document.Projection) gives the documents, and so the findings, that
// decoding records whole gives, under every field set a pack makes (each
// built-in pack alone and the check packs together, the fixture and bench
// packs) and every probe field set (a rule reading one member of the
// document, of each message or of each tool call), over every fixture file
// and the shared sample data of the formats that project. It compares the
// pruned document rules see, the whole document Go code reads (rebuilt from
// the record decoded again), and the findings of the packs' own rules.
func TestProjectedDecodeSameDocuments(t *testing.T) {
	units := projectUnits(t)
	type set struct {
		eng    *policy.Engine // nil for a probe field set
		fields *document.Fields
	}
	sets := map[string]set{}
	for name, packs := range testinputs.PackSets(t) {
		eng, err := policy.Compile(context.Background(), packs, policy.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sets[name] = set{eng, eng.Fields()}
	}
	for _, p := range probePaths {
		sets["probe "+strings.Join(p, ".")] = set{fields: document.NewFields(readsOnly(p))}
	}
	projected := 0
	// The default run compares a sample of the field sets; the `exhaustive`
	// build tag compares them all.
	for _, name := range sweep.Keys(sets, 12, "built-in check packs") {
		s := sets[name]
		var ev *Linter
		if s.eng != nil {
			ev = New(s.eng, document.Options{})
		}
		for _, u := range units {
			opts := document.Options{Fields: s.fields, SkipLookup: s.eng != nil && !s.eng.ReadsLookupUnder("")}
			proj := projection(u, opts)
			if proj == nil {
				continue
			}
			projected++
			whole := collect(u, opts, nil)
			got := collect(u, opts, proj)
			if len(whole) != len(got) {
				t.Fatalf("%s, %s: %d documents whole, %d projected", name, u.File, len(whole), len(got))
			}
			for i := range whole {
				w, g := whole[i], got[i]
				where := fmt.Sprintf("%s, %s:%d", name, u.File, w.Line)
				if !opts.Fields.StandsIn() {
					// With stand-ins the projected raw is not the record's by
					// design: the findings below are what must agree.
					sameValue(t, where+": document", w.Value, g.Value)
				}
				sameValue(t, where+": whole messages", w.Messages(), g.Messages())
				sameValue(t, where+": whole tools", w.Tools(), g.Tools())
				if ev != nil {
					wf, gf := ev.Document(context.Background(), w), ev.Document(context.Background(), g)
					slices.SortFunc(wf, finding.Compare)
					slices.SortFunc(gf, finding.Compare)
					if diff := cmp.Diff(wf, gf); diff != "" {
						t.Errorf("%s: findings (-whole +projected):\n%s", where, diff)
					}
				}
			}
		}
	}
	if projected < 100 && sweep.Full() {
		t.Errorf("only %d (field set, file) pairs decode projected: the test proves little", projected)
	}
}

// sameValue compares the values' plain forms: a projected record's raw
// messages may be astjson views, which OPA's object compare does not know
// (document.Plain).
func sameValue[V ast.Value](t *testing.T, what string, want, got V) {
	t.Helper()
	if ast.Compare(document.Plain(want), document.Plain(got)) != 0 {
		t.Errorf("%s differs:\nwhole     %v\nprojected %v", what, want, got)
	}
}

// collect builds the documents of u, decoding its records as proj says.
func collect(u Unit, opts document.Options, proj *astjson.Projection) []*document.Document {
	var out []*document.Document
	documents(u, opts, proj, func(d *document.Document, _ *jsonl.Record) { out = append(out, d) })
	return out
}

// probePaths are the document paths a probe field set reads, one each.
var probePaths = func() [][]string {
	out := [][]string{nil}
	for _, m := range []string{"format", "file", "line", "id", "mode", "profile", "tools", "entries", "lookup", "messages", "model"} {
		out = append(out, []string{m})
	}
	for _, m := range []string{"index", "role", "text", "has_content", "tool_calls", "turn", "line", "path", "tool_call_id", "stop_reason", "is_error", "lines"} {
		out = append(out, []string{"messages", "*", m})
	}
	for _, m := range []string{"index", "id", "name", "arguments", "has_input", "path", "parse_error"} {
		out = append(out, []string{"messages", "*", "tool_calls", "*", m})
	}
	return out
}()

// readsOnly answers for a rule that reads path p only: p, what lies below
// it, and the members on the way to it.
func readsOnly(p []string) func(path ...string) bool {
	return func(path ...string) bool {
		n := min(len(p), len(path))
		for i := range n {
			if p[i] != path[i] && p[i] != "*" && path[i] != "*" {
				return false
			}
		}
		return len(p) > 0
	}
}

// projectUnits are the per-record units of every fixture file and shared
// data file (not under -short) whose format projects: one unit per record,
// as the runner makes them.
func projectUnits(t *testing.T) []Unit {
	var units []Unit
	for _, p := range testinputs.Files(t, !testing.Short()) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		recs := splitRecords(p, data)
		var format document.Format
		for i := 0; i < len(recs) && i < DetectWindow; i++ {
			if f, _, _, ok := Detect(p, recs[i]); ok {
				format = f
				break
			}
		}
		if ad := document.Lookup(format); ad == nil || ad.Reads == nil || ad.PerFile {
			continue
		}
		for _, r := range recs {
			units = append(units, Unit{File: p, Format: format, Records: []jsonl.Record{r}})
		}
	}
	if len(units) < 50 {
		t.Fatalf("found %d records of formats that project", len(units))
	}
	return units
}

func splitRecords(path string, data []byte) []jsonl.Record {
	if strings.HasSuffix(path, ".json") {
		if recs, ok, err := jsonl.SplitJSON(data); ok && err == nil {
			return recs
		}
	}
	var out []jsonl.Record
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 {
			out = append(out, jsonl.Record{Line: i + 1, Data: line})
		}
	}
	return out
}
