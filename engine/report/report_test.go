package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/finding"
)

func findings() []finding.Finding {
	two := 2
	return []finding.Finding{
		{Rule: "tool-result-missing", Severity: finding.Error, Message: "call c1 has no result", File: "a.jsonl", Line: 3, Pack: "integrity", Record: "conv-1", MessageIndex: &two, Path: "/messages/2"},
		{Rule: "trailing-short-entry", Severity: finding.Warning, Message: "last entry is short", File: "b.jsonl", Line: 9, Pack: "integrity"},
	}
}

func write(t *testing.T, format string, fs []finding.Finding, s finding.Summary) string {
	t.Helper()
	var b bytes.Buffer
	w, err := New(format, &b)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if err := w.Finding(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(s); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestText(t *testing.T) {
	tests := []struct {
		name string
		fs   []finding.Finding
		sum  finding.Summary
		want string
	}{
		{"findings", findings(), finding.Summary{Files: 2, Records: 10, Errors: 1, Warnings: 1},
			"a.jsonl:3: error tool-result-missing: call c1 has no result\n" +
				"b.jsonl:9: warning trailing-short-entry: last entry is short\n" +
				"1 error, 1 warning, 0 infos (2 files, 10 records)\n"},
		{"clean", nil, finding.Summary{Files: 1, Records: 1}, "0 errors, 0 warnings, 0 infos (1 file, 1 record)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, write(t, "text", tt.fs, tt.sum)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestJSON(t *testing.T) {
	out := write(t, "json", findings(), finding.Summary{Files: 2, Records: 10, Errors: 1, Warnings: 1})
	var got any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"summary": map[string]any{"files": 2.0, "records": 10.0, "errors": 1.0, "warnings": 1.0, "infos": 0.0},
		"findings": []any{
			map[string]any{"rule": "tool-result-missing", "severity": "error", "message": "call c1 has no result", "file": "a.jsonl",
				"line": 3.0, "pack": "integrity", "record": "conv-1", "message_index": 2.0, "path": "/messages/2"},
			map[string]any{"rule": "trailing-short-entry", "severity": "warning", "message": "last entry is short", "file": "b.jsonl",
				"line": 9.0, "pack": "integrity"},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// No findings is an empty list, not null: consumers iterate it.
	if out := write(t, "json", nil, finding.Summary{}); !bytes.Contains([]byte(out), []byte(`"findings": []`)) {
		t.Errorf("empty report: %s", out)
	}
}

func TestUnknownFormat(t *testing.T) {
	if _, err := New("xml", &bytes.Buffer{}); err == nil {
		t.Fatal("want an error for an unknown format")
	}
}

func TestGitHub(t *testing.T) {
	fs := findings()
	fs[0].Message = "50% of calls, line one\nline two"
	fs[1].File = "dir,with:odd.jsonl"
	got := write(t, "github", fs, finding.Summary{Files: 2, Records: 10, Errors: 1, Warnings: 1})
	// A newline in a message is escaped like any control character: a
	// record's text cannot start a workflow command of its own.
	want := "::error file=a.jsonl,line=3,title=tool-result-missing::50%25 of calls, line one\\nline two\n" +
		"::warning file=dir%2Cwith%3Aodd.jsonl,line=9,title=trailing-short-entry::last entry is short\n" +
		"1 error, 1 warning, 0 infos (2 files, 10 records)\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
