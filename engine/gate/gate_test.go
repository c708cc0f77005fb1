package gate

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/config"
	"github.com/chatlint/chatlint/engine/finding"
)

func parseConfig(t *testing.T, src string) *config.Config {
	t.Helper()
	dir := t.TempDir()
	cfg, err := config.Parse(filepath.Join(dir, ".chatlint.yaml"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// passed runs findings through a gate and lists what it lets through as
// "rule severity record".
func passed(g *Gate, fs []finding.Finding) []string {
	var out []string
	for _, f := range fs {
		if f, ok := g.Pass(f); ok {
			out = append(out, f.Rule+" "+f.Severity.String()+" "+f.Record)
		}
	}
	return out
}

func TestGateLevelsAndSuppressions(t *testing.T) {
	cfg := parseConfig(t, `
rules:
  tool-result-flagged: warning
  legacy-function-call: "off"
suppressions:
  - rule: tool-result-missing
    record: conv-1
    reason: kept as a negative example
`)
	g, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fs := []finding.Finding{
		{Rule: "tool-result-flagged", Severity: finding.Error, File: "a.jsonl", Record: "conv-1"},
		{Rule: "legacy-function-call", Severity: finding.Error, File: "a.jsonl", Record: "conv-1"},
		{Rule: "tool-result-missing", Severity: finding.Error, File: "a.jsonl", Record: "conv-1"},
		{Rule: "tool-result-missing", Severity: finding.Error, File: "a.jsonl", Record: "conv-2"},
		// A record that was not checked is never hidden, whatever the config says.
		{Rule: "policy-error", Severity: finding.Error, File: "a.jsonl", Record: "conv-1"},
	}
	want := []string{"tool-result-flagged warning conv-1", "tool-result-missing error conv-2", "policy-error error conv-1"}
	if d := cmp.Diff(want, passed(g, fs)); d != "" {
		t.Errorf("passed (-want +got):\n%s", d)
	}
	sum := g.Summary(finding.Summary{Files: 1, Records: 2})
	if sum.Errors != 2 || sum.Warnings != 1 || g.suppressed != 1 {
		t.Errorf("summary %+v, suppressed %d; want 2 errors, 1 warning, 1 suppressed", sum, g.suppressed)
	}
}

// TestGateBaseline writes a baseline from one run, then checks that a
// second run reports only what the baseline does not hold, each entry
// standing for as many findings as were recorded under its key.
func TestGateBaseline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "base.json")
	old := []finding.Finding{
		{Rule: "r", Severity: finding.Error, File: "a.jsonl", Line: 3, Record: "c1", Path: "/messages/1", Message: "m"},
		{Rule: "r", Severity: finding.Error, File: "a.jsonl", Line: 3, Record: "c1", Path: "/messages/1", Message: "m"},
	}
	w, err := New(nil, Options{WriteBaseline: path})
	if err != nil {
		t.Fatal(err)
	}
	passed(w, old)
	var stderr bytes.Buffer
	if err := w.Finish(&stderr); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("baseline not written: %v", err)
	}

	g, err := New(nil, Options{Baseline: path})
	if err != nil {
		t.Fatal(err)
	}
	moved := old[0]
	moved.Line = 9 // records moved around a known finding: still known
	now := []finding.Finding{moved, old[1], old[1], {Rule: "r", Severity: finding.Error, File: "a.jsonl", Record: "c2", Message: "m"}}
	want := []string{"r error c1", "r error c2"}
	if d := cmp.Diff(want, passed(g, now)); d != "" {
		t.Errorf("passed (-want +got):\n%s", d)
	}
	if g.baselined != 2 {
		t.Errorf("baselined %d, want 2", g.baselined)
	}
}

func TestGateBadBaseline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "base.json")
	if err := os.WriteFile(path, []byte(`{"version": 99, "findings": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New(nil, Options{Baseline: path}); err == nil {
		t.Error("a baseline of another version was accepted")
	}
}
