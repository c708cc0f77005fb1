package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/internal/sweep"
)

// invariantFiles lists every data file of the repository's fixtures and of
// ../shared/data (when it is there): the files read as records (.jsonl,
// .json, .traj) and the ones that are not JSON Lines at all (.md, .parquet).
func invariantFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, root := range []string{filepath.Join(repo, "fixtures"), sharedData} {
		if _, err := os.Stat(root); err != nil {
			continue // ../shared/data is absent: its files are skipped
		}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			name := d.Name()
			switch {
			case strings.HasSuffix(name, jsonl.RejectsSuffix), strings.Contains(p, "/golden/"), strings.Contains(p, "/expected"):
				return nil // outputs of the tests, not inputs
			case slices.Contains([]string{".jsonl", ".json", ".traj", ".md", ".parquet"}, filepath.Ext(name)) && name != "README.md" && name != "SOURCES.md":
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// checkRun is what check said of one file.
type checkRun struct {
	errors   int
	lines    map[int]bool // lines with a finding
	refusals []string     // unrecognized-format and not-jsonl findings
	any      bool
}

func checkFile(t *testing.T, file string) checkRun {
	t.Helper()
	out, errOut, code := chatlint(t, "", "check", "-o", "json", "--fail-on", "never", file)
	if code != 0 {
		t.Fatalf("check %s: exit %d: %s", file, code, errOut)
	}
	var res struct {
		Findings []struct {
			Rule, Severity string
			Line           int
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("check %s: %v", file, err)
	}
	r := checkRun{lines: map[int]bool{}}
	for _, f := range res.Findings {
		r.any = true
		r.lines[f.Line] = true
		if f.Severity == "error" {
			r.errors++
		}
		if f.Rule == "unrecognized-format" || f.Rule == "not-jsonl" {
			r.refusals = append(r.refusals, f.Rule)
		}
	}
	return r
}

// emptied counts the records of a JSON Lines file whose messages (or
// conversations, contents) are an empty list.
func emptied(data []byte) int {
	var recs []map[string]json.RawMessage
	for _, line := range bytes.Split(data, []byte("\n")) {
		var rec map[string]json.RawMessage
		if json.Unmarshal(line, &rec) == nil {
			recs = append(recs, rec)
		}
	}
	return emptyLists(recs)
}

// records returns the JSON objects a file holds, read as check reads it
// (a .json or .traj document whole, anything else line by line).
func records(t *testing.T, file string) []map[string]json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var recs []jsonl.Record
	if jsonl.IsJSONDocument(file) {
		if rs, ok, err := jsonl.SplitJSON(data); ok && err == nil {
			recs = rs
		}
	}
	if recs == nil {
		for i, line := range bytes.Split(data, []byte("\n")) {
			recs = append(recs, jsonl.Record{Line: i + 1, Data: line})
		}
	}
	var out []map[string]json.RawMessage
	for _, r := range recs {
		var rec map[string]json.RawMessage
		if json.Unmarshal(bytes.TrimPrefix(r.Data, []byte("\xef\xbb\xbf")), &rec) == nil {
			out = append(out, rec)
		}
	}
	return out
}

// TestInvariants holds, over every fixture and every file of
// ../shared/data, what fix and convert promise whatever the file:
//
//   - a file no format claims, or that is not JSON Lines, is refused by fix
//     (exit 2, nothing written);
//   - fix never empties a record (a messages, conversations or contents list
//     that had elements and has none);
//   - check after fix never reports more errors than before;
//   - check reports whatever fix changes: a file fix changes has findings;
//   - convert --to openai carries every top-level member of a chat, contract
//     or ShareGPT record, or names it in a convert-lossy note.
func TestInvariants(t *testing.T) {
	files := invariantFiles(t)
	if len(files) < 100 {
		t.Fatalf("only %d files found", len(files))
	}
	// Every real file of ../shared/data, and a sample of the fixtures in the
	// default run (each file is four runs of the binary); -tags exhaustive
	// takes every fixture.
	var shared, fixtures []string
	for _, f := range files {
		if strings.HasPrefix(f, sharedData) {
			shared = append(shared, f)
		} else {
			fixtures = append(fixtures, f)
		}
	}
	for _, file := range append(shared, sweep.Strings(fixtures, 30)...) {
		rel := strings.TrimPrefix(file, repo+"/")
		t.Run(rel, func(t *testing.T) {
			before := checkFile(t, file)
			dir := t.TempDir()
			out := filepath.Join(dir, "out.jsonl")
			_, fixErr, code := chatlint(t, "", "fix", "-o", out, file)
			if len(before.refusals) > 0 {
				if code != 2 {
					t.Errorf("fix of a file check refuses (%v): exit %d, want 2: %s", before.refusals, code, fixErr)
				}
				if _, err := os.Stat(out); err == nil {
					t.Errorf("fix wrote a file check refuses (%v)", before.refusals)
				}
				return
			}
			fixed, err := os.ReadFile(out)
			if err != nil {
				return // refused (a batch output, a goose session) or unreadable: nothing written, nothing to compare
			}
			if got, was := emptied(fixed), emptyLists(records(t, file)); got > was {
				t.Errorf("fix emptied %d record(s) (%d were empty before):\n%s", got-was, was, fixErr)
			}
			after := checkFile(t, out)
			if after.errors > before.errors {
				t.Errorf("check after fix: %d errors, before: %d\n%s", after.errors, before.errors, fixErr)
			}
			// Changed records, not layout: blank lines, a byte-order mark or
			// a .json array written as JSON Lines are no change.
			changed := !slices.Equal(canonical(records(t, file)), canonical(records(t, out)))
			if changed && !before.any {
				t.Errorf("fix changed the file, but check reported nothing in it:\n%s", fixErr)
			}
			convertMembers(t, file)
		})
	}
}

// canonical is each record compacted, for comparing records whatever their
// layout.
func canonical(recs []map[string]json.RawMessage) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		b, _ := json.Marshal(r)
		out[i] = string(b)
	}
	return out
}

// emptyLists counts the records whose messages, conversations or contents
// are an empty list.
func emptyLists(recs []map[string]json.RawMessage) int {
	n := 0
	for _, rec := range recs {
		for _, k := range []string{"messages", "conversations", "contents"} {
			if v, ok := rec[k]; ok && string(bytes.ReplaceAll(v, []byte(" "), nil)) == "[]" {
				n++
			}
		}
	}
	return n
}

// convertMembers runs convert --to openai on a file of chat, contract or
// ShareGPT records and checks that every top-level member of every record is
// carried (messages, tools; a ShareGPT conversation and system) or named in
// a note.
func convertMembers(t *testing.T, file string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "train.jsonl")
	_, notes, code := chatlint(t, "", "convert", "--to", "openai", "-o", out, file)
	if code == 2 {
		return // nothing to convert (no record of a known format)
	}
	// images become image_url parts, chosen/rejected a preference example,
	// a KTO label decides whether there is an example (engine/openai).
	carried := map[string]bool{"messages": true, "tools": true, "conversations": true, "system": true,
		"images": true, "chosen": true, "rejected": true, "label": true, "kto_tag": true}
	recs := records(t, file)
	if len(recs) == 0 {
		return
	}
	chatLike := func(rec map[string]json.RawMessage) bool {
		_, m := rec["messages"]
		_, c := rec["conversations"]
		return m || c
	}
	for _, rec := range recs {
		if !chatLike(rec) {
			continue
		}
		for k := range rec {
			if carried[k] || strings.Contains(notes, `"`+k+`"`) || strings.Contains(notes, "error convert-") {
				continue
			}
			t.Errorf("convert --to openai: member %q is neither carried nor named in a note:\n%s", k, firstLines(notes, 5))
			return
		}
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
