package contract

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/policy"
)

// TestGateSameReport validates the contract fixtures, the gate's edge cases
// (cmd/chatlint/testdata/contract-gate-cases.jsonl), mixedInput and the
// shared conversation records with the contract pack as built in and without
// its gate (policies/contract/gate.yaml): the report, text and JSON, and the
// messages-only snapshot must be the same byte for byte. (cmd/chatlint's
// TestContractGateSameFindings holds check's findings.)
func TestGateSameReport(t *testing.T) {
	ctx := context.Background()
	gated, err := NewEngine(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ungated := ungatedEngine(t)
	const repo = "../.."
	inputs, _ := filepath.Glob(filepath.Join(repo, "fixtures", "contract", "*", "*.jsonl"))
	if len(inputs) < 10 {
		t.Fatalf("found %d contract fixtures", len(inputs))
	}
	inputs = append(inputs, filepath.Join(repo, "cmd", "chatlint", "testdata", "contract-gate-cases.jsonl"))
	shared, _ := filepath.Glob(filepath.Join(repo, "..", "shared", "data", "conversation-records", "*.jsonl"))
	if len(shared) == 0 {
		t.Log("no ../shared/data: compared without it")
	}
	inputs = append(inputs, shared...)
	data := map[string][]byte{"mixed": mixedInput(300)}
	for _, f := range inputs {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		data[f] = b
	}
	for name, b := range data {
		got, want := validateAll(t, gated, name, b), validateAll(t, ungated, name, b)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: report (-without the gate +with):\n%s", name, diff)
		}
	}
}

// ungatedEngine compiles the built-in contract pack without its gate.
func ungatedEngine(t *testing.T) *Engine {
	t.Helper()
	packs, err := builtin.Packs()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range packs {
		if p.Name != PackName {
			continue
		}
		q := *p
		q.YAML = nil
		for _, f := range p.YAML {
			if !strings.HasSuffix(f.Name, "gate.yaml") {
				q.YAML = append(q.YAML, f)
			}
		}
		if len(q.YAML) == len(p.YAML) {
			t.Fatal("the contract pack has no gate.yaml")
		}
		eng, err := policy.Compile(context.Background(), []*policy.Pack{&q}, policy.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return &Engine{eng: eng}
	}
	t.Fatal("no contract pack")
	return nil
}

// validateAll returns the text report, the JSON report and the snapshot of
// validating b.
func validateAll(t *testing.T, e *Engine, name string, b []byte) [3]string {
	t.Helper()
	var snap bytes.Buffer
	r, err := e.Validate(context.Background(), bytes.NewReader(b), Options{InputPath: name, MaxErrors: 1000, Snapshot: &snap})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var text, js bytes.Buffer
	if err := r.WriteText(&text, "report.json"); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	return [3]string{text.String(), js.String(), snap.String()}
}
