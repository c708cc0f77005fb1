package fix

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/internal/benchdata"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/runner"
)

// TestGateChangesNothing holds the built-in cleanup packs' rego_when gates
// (rules/openai-tools/gate.yaml, rules/transcript/gate.yaml) to what they
// claim: OPA may skip a document none of their entries fires on because the
// pack's Rego would ask for nothing there. Every case of fixtures/fix, every
// fixture of the cleanup packs' rule folders and every file of
// ../shared/data is fixed with each pack alone and with both as stages, once
// with the packs as shipped and once with their Rego alone (the gate files
// left out: the packs as they were before the gates); outputs, rejects,
// actions, passes and notes must be the same, byte for byte.
func TestGateChangesNothing(t *testing.T) {
	var files []string
	for _, root := range []string{"fixtures/fix", "fixtures/formats", "../shared/data"} {
		dir := filepath.Join(benchdata.Root(), root)
		if _, err := os.Stat(dir); err != nil {
			if root == "../shared/data" {
				t.Log("../shared/data is absent: only the fixtures are compared")
				continue
			}
			t.Fatal(err)
		}
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if (strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".json")) && !strings.HasSuffix(p, ".rejects.jsonl") &&
				!strings.HasSuffix(p, "expected.json") {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 100 {
		t.Fatalf("only %d files", len(files))
	}
	cleanup, err := builtin.Cleanup()
	if err != nil {
		t.Fatal(err)
	}
	compile := func(gated bool, names ...string) []*policy.Evaluator {
		var evs []*policy.Evaluator
		for _, n := range names {
			p := packNamed(t, cleanup, n)
			if !gated {
				p = withoutGate(t, p)
			}
			e, err := policy.Compile(context.Background(), []*policy.Pack{p}, policy.Options{})
			if err != nil {
				t.Fatal(err)
			}
			evs = append(evs, e.NewEvaluator())
		}
		return evs
	}
	sets := [][]string{{"openai-tools"}, {"transcript"}, {"openai-tools", "transcript"}}
	var gated, plain [][]*policy.Evaluator
	for _, s := range sets {
		gated, plain = append(gated, compile(true, s...)), append(plain, compile(false, s...))
	}
	units, acted := 0, 0
	for _, f := range files {
		var jobs []runner.Job
		if _, err := runner.ReadInput(context.Background(), runner.Input{Name: f, Path: f}, runner.Options{}, func(j runner.Job) {
			if len(j.Records) > 0 && j.Format != "" {
				jobs = append(jobs, j)
			}
		}); err != nil {
			continue // a file the reader refuses is no concern of the gates
		}
		for _, j := range jobs {
			units++
			for k, s := range sets {
				opts := Options{Format: j.Format, File: f}
				want := outcomeText(Run(context.Background(), plain[k], j.Records, opts))
				got := outcomeText(Run(context.Background(), gated[k], j.Records, opts))
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s line %d, %s: with the gate (+) and without (-):\n%s", f, j.Records[0].Line, strings.Join(s, "+"), diff)
				}
				if strings.Contains(want, `"Applied":[{`) || strings.Contains(want, "error:") {
					acted++
				}
			}
		}
	}
	t.Logf("%d files, %d units, %d runs where a pack acted or kept a record", len(files), units, acted)
	if acted < 50 {
		t.Errorf("the packs acted in only %d runs: the comparison no longer tests the gates", acted)
	}
}

// withoutGate is p without the YAML files that gate its Rego.
func withoutGate(t *testing.T, p *policy.Pack) *policy.Pack {
	t.Helper()
	q := *p
	q.YAML = nil
	n := 0
	for _, f := range p.YAML {
		if bytes.Contains(f.Source, []byte("\nrego_when:")) {
			n++
			continue
		}
		q.YAML = append(q.YAML, f)
	}
	if n == 0 {
		t.Fatalf("pack %s has no rego_when file", p.Name)
	}
	return &q
}

// outcomeText is everything fix makes of a unit, as text: records written
// (line and bytes), rejects, actions applied, passes, the lines kept as
// not JSON, the id, and the error (a kept record's note, a conflict).
func outcomeText(o *Outcome, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	type rec struct {
		Line    int
		Data    string
		Changed bool
	}
	v := struct {
		Records []rec
		Rejects []Reject
		Applied []policy.Action
		Passes  int
		Invalid []int
		ID      string
	}{Rejects: o.Rejects, Applied: o.Applied, Passes: o.Passes, Invalid: o.Invalid, ID: o.ID}
	for i, r := range o.Records {
		v.Records = append(v.Records, rec{r.Line, string(r.Data), o.Changed[i]})
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "marshal: " + err.Error()
	}
	return string(b)
}
