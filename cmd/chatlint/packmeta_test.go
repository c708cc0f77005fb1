package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRegalLayoutPack checks, lists and tests a pack folder whose rules are
// declared both ways: METADATA above the package line (package scope) and on
// the rule. A package-scope declaration used to be refused at the first
// finding ("rule ... is not declared", exit 2).
func TestRegalLayoutPack(t *testing.T) {
	pack := filepath.Join(repo, "fixtures/packs/regal-layout")
	dir := t.TempDir()
	data := writeFile(t, dir, "data.jsonl",
		`{"messages":[{"role":"user","content":"a forbidden word"},{"role":"assistant","content":"NO WAY"}]}`+"\n")
	out, errOut, code := chatlint(t, "", "check", "--no-builtin", "--no-config", "--pack", pack, data)
	want := data + ":1: error no-forbidden-word: user message 0 says a forbidden word\n" +
		data + ":1: warning no-shouting: assistant message 1 shouts\n"
	if code != 1 || !strings.HasPrefix(out, want) {
		t.Errorf("check: exit %d, want 1\n%s%s\nwant the lines:\n%s", code, out, errOut, want)
	}

	out, errOut, code = chatlint(t, "", "rules", "--no-builtin", "--no-config", "--pack", pack, "--format", "json")
	if code != 0 {
		t.Fatalf("rules: exit %d\n%s", code, errOut)
	}
	var rules []struct{ ID, Severity, Source string }
	if err := json.Unmarshal([]byte(out), &rules); err != nil {
		t.Fatalf("rules json: %v\n%s", err, out)
	}
	got := map[string]string{}
	for _, r := range rules {
		if strings.HasSuffix(r.Source, ".rego:1") || strings.HasSuffix(r.Source, ".rego:3") {
			got[r.ID] = r.Severity + " " + filepath.Base(r.Source)
		}
	}
	wantRules := map[string]string{"no-forbidden-word": "error no_forbidden_word.rego:1", "no-shouting": "warning no_shouting.rego:3"}
	if diff := cmp.Diff(wantRules, got); diff != "" {
		t.Errorf("rules (-want +got):\n%s\n%s", diff, out)
	}

	if out, errOut, code := chatlint(t, "", "test", pack); code != 0 || !strings.Contains(out, "4 passed, 0 failed") {
		t.Errorf("test: exit %d\n%s%s", code, out, errOut)
	}
}
