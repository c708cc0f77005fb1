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

// TestBaselineRecordContent checks that records without an id are known by
// their whole content: elements of a pretty-printed .json array (whose first
// lines are all alike) and records read from stdin, which cannot be read a
// second time.
func TestBaselineRecordContent(t *testing.T) {
	dir := t.TempDir()
	pack := []string{"--no-builtin", "--pack", filepath.Join(repo, "fixtures/packs/team"), "--fail-on", "warning"}
	old := `{"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": ""}]}`
	newDefect := `{"messages": [{"role": "user", "content": "b"}, {"role": "assistant", "content": ""}]}`
	pretty := func(records ...string) string {
		return "[\n  " + strings.Join(records, ",\n  ") + "\n]\n"
	}
	for _, tc := range []struct {
		name        string
		file        string // "" reads stdin
		before, now string
		newLine     string // where the new record's finding is reported
	}{
		{"pretty .json array", "d.json",
			pretty(strings.ReplaceAll(old, `"messages": `, "\n    \"messages\": "), cleanRecord),
			pretty(strings.ReplaceAll(newDefect, `"messages": `, "\n    \"messages\": "), cleanRecord, strings.ReplaceAll(old, `"messages": `, "\n    \"messages\": ")),
			"d.json:3: "},
		{"stdin", "", old + "\n", cleanRecord + "\n" + newDefect + "\n" + old + "\n", ":2: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := filepath.Join(t.TempDir(), "baseline.json")
			run := func(data string, args ...string) (string, string, int) {
				if tc.file == "" {
					return chatlint(t, data, append(append([]string{"check"}, args...), append(pack, "-")...)...)
				}
				return chatlint(t, "", append(append([]string{"check"}, args...), append(pack, writeFile(t, dir, tc.file, data))...)...)
			}
			if out, errOut, code := run(tc.before, "--write-baseline", base); code != 1 || !strings.Contains(errOut, "wrote 1 finding") {
				t.Fatalf("write: exit %d\n%s%s", code, out, errOut)
			}
			out, errOut, code := run(tc.now, "--baseline", base)
			if code != 1 || strings.Count(out, ": warning no-empty-assistant") != 1 || !strings.Contains(out, tc.newLine+"warning") ||
				!strings.Contains(errOut, "1 known finding") {
				t.Errorf("want the new record's finding only, the old one known: exit %d\n%s%s", code, out, errOut)
			}
		})
	}
}

// TestBaselineLongLines checks that a line skipped for its length is known
// by its content too: it stays known when lines are inserted above it, and
// another long line is new.
func TestBaselineLongLines(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "baseline.json")
	long := `{"messages": [{"role": "user", "content": "` + strings.Repeat("a", 300) + `"}]}`
	other := strings.Replace(long, `"a`, `"b`, 1)
	args := []string{"check", "--no-builtin", "--pack", filepath.Join(repo, "fixtures/packs/team"), "--max-line-size", "200"}
	data := writeFile(t, dir, "d.jsonl", long+"\n")
	if out, errOut, code := chatlint(t, "", append(args, "--write-baseline", base, data)...); code != 1 || !strings.Contains(errOut, "wrote 1 finding") {
		t.Fatalf("write: exit %d\n%s%s", code, out, errOut)
	}
	data = writeFile(t, dir, "d.jsonl", cleanRecord+"\n"+other+"\n"+long+"\n")
	out, errOut, code := chatlint(t, "", append(args, "--baseline", base, data)...)
	if code != 1 || strings.Count(out, "line-too-long") != 1 || !strings.Contains(out, "d.jsonl:2: error line-too-long") ||
		!strings.Contains(errOut, "1 known finding") {
		t.Errorf("want the other long line only, the first known: exit %d\n%s%s", code, out, errOut)
	}
}
