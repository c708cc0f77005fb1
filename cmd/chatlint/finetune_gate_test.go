package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The finetune pack's gate (rules/finetune/gate.yaml) keeps OPA off the
// records on which no Rego rule of the pack can report: under the openai
// profile, every record but the few its entries fire on. It decides nothing
// itself, so the pack must report exactly what it reports without the gate:
// under every provider profile, on every fixture of every pack, on the
// edge cases of testdata/finetune-gate-cases.jsonl (each entry's rule, a
// near miss beside it, shapes the Rego reads in its own way: tool_calls an
// object or a string, messages not a list) and of
// testdata/finetune-gate-preference-cases.jsonl (each problem a preference
// record may have, clean ones beside them), on an example longer than the
// model's limit and on the shared sample data.
func TestFinetuneGateSameFindings(t *testing.T) {
	ungated := t.TempDir()
	copyPackFiles(t, filepath.Join(repo, "policies", "finetune"), ungated, func(name string) bool {
		return name == "pack.yaml" || name == "models.yaml" || strings.HasSuffix(name, ".rego") && !strings.HasSuffix(name, "_test.rego")
	})
	copyPackFiles(t, filepath.Join(repo, "rules", "finetune"), ungated, func(name string) bool {
		return strings.HasSuffix(name, ".yaml") && name != "gate.yaml"
	})
	long := filepath.Join(t.TempDir(), "long.jsonl")
	// 70,000 tokens: over gpt-4o-mini's 65,536, the default model's limit.
	rec := `{"messages": [{"role": "user", "content": "` + strings.Repeat(" a", 70000) + `"}, {"role": "assistant", "content": "Done."}]}` + "\n" +
		`{"messages": [{"role": "user", "content": "Short."}, {"role": "assistant", "content": "Done."}]}` + "\n"
	if err := os.WriteFile(long, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	equivalence{
		pack:     "finetune",
		before:   ungated,
		profiles: []string{"openai", "mistral", "together", "bedrock"},
		inputs: map[string][]string{
			"cases": {filepath.Join("testdata", "finetune-gate-cases.jsonl"), filepath.Join("testdata", "finetune-cases.jsonl"), long},
			// A file of preference records, read as such: each problem of
			// openai-preference-shape, near misses beside them.
			"preference cases": {filepath.Join("testdata", "finetune-gate-preference-cases.jsonl")},
		},
		check: func(t *testing.T, name, profile string, now []jsonFinding) {
			if name == "preference cases" && profile == "openai" && ruleCounts(now, false)["openai-preference-shape"] < 15 {
				t.Errorf("preference cases, profile openai: %d openai-preference-shape findings, want each problem", ruleCounts(now, false)["openai-preference-shape"])
			}
			if name != "cases" || profile != "openai" {
				return
			}
			counts := ruleCounts(now, false)
			for _, r := range []string{"openai-message-keys", "openai-content-type", "openai-assistant-missing", "openai-weight",
				"tool-arguments-not-string", "openai-preference-shape", "example-too-long", "openai-function-name"} {
				if counts[r] == 0 {
					t.Errorf("cases, profile openai: no %s finding: the comparison proves nothing for it", r)
				}
			}
		},
	}.run(t)
}

// copyPackFiles copies the files of dir that keep says to keep into to.
func copyPackFiles(t *testing.T, dir, to string, keep func(name string) bool) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() || !keep(e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
