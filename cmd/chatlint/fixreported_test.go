package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestFixReportedByCheck holds, over every case of fixtures/fix and every
// file of ../shared/data, the promise a CI gate rests on: whatever fix
// changes, check reported first. Every record fix --dry-run would change
// (with the case's built-in packs, or the file's default ones) has a finding
// of check on that record, so a file check passes without a finding is one
// fix leaves as it is. The cases of a pack of their own (./pack) are left
// out: a team's cleanup rule may change what no built-in check judges.
func TestFixReportedByCheck(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join(repo, "fixtures", "fix", "*", "input.jsonl"))
	if err != nil || len(cases) < 30 {
		t.Fatalf("found %d fix cases (%v)", len(cases), err)
	}
	changes := 0
	for _, input := range cases {
		dir := filepath.Dir(input)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var args []string
			if b, err := os.ReadFile(filepath.Join(dir, "args")); err == nil {
				args = strings.Fields(string(b))
			}
			if slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "./") }) {
				t.Skip("a pack of the case's own")
			}
			changes += fixReported(t, input, args)
		})
	}
	// A dry run that changed nothing anywhere would prove nothing.
	if changes < 30 {
		t.Errorf("fix changes only %d records of the fix cases", changes)
	}
	for _, file := range invariantFiles(t) {
		if !strings.HasPrefix(file, sharedData) {
			continue
		}
		t.Run(strings.TrimPrefix(file, sharedData+"/"), func(t *testing.T) { _ = fixReported(t, file, nil) })
	}
}

// fixReported asserts that check reports every record fix changes in file,
// and returns how many fix changes.
func fixReported(t *testing.T, file string, args []string) int {
	t.Helper()
	changed, refused := dryRunChanges(t, file, args)
	if refused {
		return 0 // fix writes nothing for it (a format it does not rewrite, Parquet, not JSON Lines)
	}
	reported := checkedRecords(t, file)
	for _, rec := range changed {
		if !reported[rec] {
			t.Errorf("fix changes record %s, but check reports nothing on it", rec)
		}
	}
	return len(changed)
}

// dryRunChanges returns the ids of the records fix --dry-run would change:
// its header line per changed record, "FILE:LINE: record ID: RULE (N), ...";
// refused when fix would write nothing for the file (exit 2).
func dryRunChanges(t *testing.T, file string, args []string) (ids []string, refused bool) {
	t.Helper()
	out, _, code := chatlint(t, "", append(append([]string{"fix", "--dry-run"}, args...), file)...)
	if code == 2 {
		return nil, true
	}
	head := regexp.MustCompile(`^` + regexp.QuoteMeta(file) + `:\d+: record (.+): [a-z0-9-]+ \(\d+\)`)
	for _, line := range strings.Split(out, "\n") {
		if m := head.FindStringSubmatch(line); m != nil {
			ids = append(ids, m[1])
		}
	}
	return ids, false
}

// checkedRecords returns the ids of the records check reports anything on,
// and FILE:LINE of each finding (a line that is no record, such as a JSON
// value that is not an object, has no record id).
func checkedRecords(t *testing.T, file string) map[string]bool {
	t.Helper()
	out, errOut, code := chatlint(t, "", "check", "-o", "json", "--fail-on", "never", file)
	if code != 0 {
		t.Fatalf("check: exit %d: %s", code, errOut)
	}
	var res struct {
		Findings []struct {
			Record, File string
			Line         int
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, f := range res.Findings {
		ids[f.Record] = true
		ids[f.File+":"+strconv.Itoa(f.Line)] = true
	}
	return ids
}
