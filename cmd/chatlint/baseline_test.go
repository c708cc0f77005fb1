package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBaseline adopts a baseline on existing data, then checks that lines
// moving (a record inserted above) do not bring old findings back while a
// new finding is still reported.
func TestBaseline(t *testing.T) {
	dir := t.TempDir()
	noID := `{"messages":[{"role":"user","content":"a"},{"role":"assistant","content":""}]}`
	withID := `{"id":"c-2","messages":[{"role":"user","content":"b"},{"role":"assistant","content":""}]}`
	data := writeFile(t, dir, "d.jsonl", noID+"\n"+withID+"\n{broken\n")
	base := filepath.Join(dir, "baseline.json")
	pack := []string{"--no-builtin", "--pack", filepath.Join(repo, "fixtures/packs/team"), "--fail-on", "warning"}

	out, errOut, code := chatlint(t, "", append([]string{"check", "--write-baseline", base, data}, pack...)...)
	if code != 1 || !strings.Contains(errOut, "wrote 3 findings to baseline") {
		t.Fatalf("write: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = chatlint(t, "", append([]string{"check", "--baseline", base, data}, pack...)...)
	if code != 0 || !strings.Contains(out, "0 errors, 0 warnings") || !strings.Contains(errOut, "3 known findings") {
		t.Fatalf("same data: exit %d\n%s%s", code, out, errOut)
	}

	// Insert a clean record and a new defect above: every line moves.
	newDefect := `{"messages":[{"role":"user","content":"new"},{"role":"assistant","content":""}]}`
	if err := os.WriteFile(data, []byte(cleanRecord+"\n"+newDefect+"\n"+noID+"\n"+withID+"\n{broken\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = chatlint(t, "", append([]string{"check", "--baseline", base, data}, pack...)...)
	if code != 1 {
		t.Errorf("new finding: exit %d, want 1", code)
	}
	if !strings.Contains(out, "d.jsonl:2: warning no-empty-assistant") || strings.Count(out, "d.jsonl:") != 1 {
		t.Errorf("want only the new finding on line 2:\n%s%s", out, errOut)
	}

	// A baseline that is not one is an error, not an empty baseline.
	bad := writeFile(t, dir, "bad.json", "[1,2]")
	if _, errOut, code := chatlint(t, "", "check", "--baseline", bad, data); code != 2 || !strings.Contains(errOut, "not a chatlint baseline") {
		t.Errorf("bad baseline: exit %d, %s", code, errOut)
	}
}
