package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/engine/finding"
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

// TestRecordKeys checks the record identity of findings without a record
// id: the same content on another line (or with CRLF) gives the same key,
// other content another, and lines may be asked for out of order.
func TestRecordKeys(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 200<<10) // longer than the reader's buffer
	a := writeFile(t, dir, "a.jsonl", "one\n"+long+"\ntwo\r\n")
	b := writeFile(t, dir, "b.jsonl", "two\n\n"+long+"\none")
	fallback := func(file string, line int) finding.Finding {
		return finding.Finding{File: file, Line: line, Record: file + ":" + strconv.Itoa(line)}
	}
	var k recordKeys
	defer k.close()
	ids := map[string]string{}
	for _, q := range []struct {
		name string
		f    finding.Finding
	}{
		{"a1", fallback(a, 1)}, {"a3", fallback(a, 3)}, {"a2", fallback(a, 2)},
		{"b1", fallback(b, 1)}, {"b3", fallback(b, 3)}, {"b4", fallback(b, 4)},
		{"id", finding.Finding{File: a, Line: 1, Record: "conv-1"}},
		{"syntax", finding.Finding{File: b, Line: 4}},
		{"past end", fallback(b, 9)},
	} {
		ids[q.name] = k.identity(q.f)
	}
	for _, same := range [][2]string{{"a1", "b4"}, {"a3", "b1"}, {"a2", "b3"}, {"b4", "syntax"}} {
		if ids[same[0]] != ids[same[1]] || !strings.HasPrefix(ids[same[0]], "sha256:") {
			t.Errorf("%s and %s should be the same content: %q %q", same[0], same[1], ids[same[0]], ids[same[1]])
		}
	}
	if ids["a1"] == ids["a2"] {
		t.Error("different lines hash the same")
	}
	if ids["id"] != "conv-1" || ids["past end"] != b+":9" {
		t.Errorf("id %q, past end %q", ids["id"], ids["past end"])
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
