package main

import (
	"strings"
	"testing"
)

// TestValidateInputLineBound: validate-input read a line of any length
// (one 600 MB line took 2.6 GB). A line over --max-line-size is now a
// line_too_long error of the report, read past without being held, and
// the lines after it are still validated.
func TestValidateInputLineBound(t *testing.T) {
	rec := func(id, content string) string {
		return `{"conversation_id": "` + id + `", "user_id": "u", "timestamp": "2026-02-10", "messages": [{"content": "` + content + `", "role": "user"}]}` + "\n"
	}
	dir := t.TempDir()
	p := writeFile(t, dir, "in.jsonl", rec("c1", "hi")+rec("c2", strings.Repeat("x", 400))+rec("c3", "hi"))
	stdout, stderr, code := chatlint(t, "", "validate-input", "--input", p, "--max-line-size", "300")
	if code != 1 {
		t.Errorf("exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{"Valid conversations: 2", "line 2 [line_too_long] the line is ", "over the limit of 300 bytes"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	// Under the default bound the same file is valid.
	if stdout, _, code := chatlint(t, "", "validate-input", "--input", p); code != 0 {
		t.Errorf("default bound: exit %d\n%s", code, stdout)
	}
}

// TestWorkersNote: --workers above runner.MaxWorkers is lowered to it with
// a note on stderr, in every command that takes it; the result is the same.
func TestWorkersNote(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "a.jsonl", cleanRecord+"\n")
	for _, args := range [][]string{{"check"}, {"stats"}, {"fix", "--dry-run"}, {"convert", "--to", "openai"}} {
		want, _, wantCode := chatlint(t, "", append(args, p)...)
		got, stderr, code := chatlint(t, "", append(args, "--workers", "1000000", p)...)
		if code != wantCode || got != want || !strings.Contains(stderr, "note: --workers 1000000 lowered to ") {
			t.Errorf("%v: exit %d (want %d), stderr %q", args, code, wantCode, stderr)
		}
	}
}
