package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// contractFixtures holds one folder per validate-input case: input.jsonl,
// an optional args file (one argument per line; default --input
// input.jsonl), and the expected outputs: expected-output.txt (exit status,
// stdout, stderr), expected-report.json (the --report-json file, absent when
// none is written) and expected-messages.jsonl (the --write-messages-only
// file). Run `go test ./cmd/chatlint -run TestValidateInputGolden -update`
// to rewrite them, then review the diff.
const contractFixtures = repo + "/fixtures/contract"

func TestValidateInputGolden(t *testing.T) {
	entries, err := os.ReadDir(contractFixtures)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join(contractFixtures, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			tmp := t.TempDir()
			args := []string{"--input", "input.jsonl"}
			if b, err := os.ReadFile(filepath.Join(dir, "args")); err == nil {
				args = strings.Fields(string(b))
			}
			report := filepath.Join(tmp, "report.json")
			messages := ""
			if i := slices.Index(args, "--write-messages-only"); i >= 0 {
				messages = filepath.Join(tmp, args[i+1])
				args[i+1] = messages
			}
			stdin := ""
			if slices.Contains(args, "-") {
				b, err := os.ReadFile(filepath.Join(dir, "input.jsonl"))
				if err != nil {
					t.Fatal(err)
				}
				stdin = string(b)
			}
			t.Chdir(dir)
			out, errOut, code := chatlint(t, stdin, append([]string{"validate-input", "--report-json", report}, args...)...)
			got := fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", code, out, errOut)
			compareGolden(t, filepath.Join(dir, "expected-output.txt"), []byte(strings.ReplaceAll(got, tmp, "<tmp>")), true)
			compareFileGolden(t, report, filepath.Join(dir, "expected-report.json"))
			if messages != "" {
				compareFileGolden(t, messages, filepath.Join(dir, "expected-messages.jsonl"))
			}
		})
	}
}

// compareFileGolden compares the file a run wrote (or did not write) with its
// golden; a golden that does not exist means the file must not be written.
func compareFileGolden(t *testing.T, got, golden string) {
	t.Helper()
	b, err := os.ReadFile(got)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if *update {
			os.Remove(golden)
		}
		if _, err := os.Stat(golden); err == nil {
			t.Errorf("%s was not written, but %s exists", got, golden)
		}
	case err != nil:
		t.Fatal(err)
	default:
		compareGolden(t, golden, b, true)
	}
}

func compareGolden(t *testing.T, golden string, got []byte, mayUpdate bool) {
	t.Helper()
	if *update && mayUpdate {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", golden, diff)
	}
}

// TestCheckRunsContractPack checks that check, on a contract file, reports
// every schema error of validate-input under its own rule id, on the same
// line with the same message.
func TestCheckRunsContractPack(t *testing.T) {
	input := filepath.Join(contractFixtures, "schema-validation-failed", "input.jsonl")
	report := filepath.Join(t.TempDir(), "report.json")
	if _, errOut, code := chatlint(t, "", "validate-input", "--input", input, "--report-json", report); code != 1 {
		t.Fatalf("validate-input exit %d: %s", code, errOut)
	}
	var rep struct {
		Errors []struct {
			Line    int    `json:"line_number"`
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, e := range rep.Errors {
		if e.Code != "schema_validation_failed" {
			t.Fatalf("unexpected error %+v", e)
		}
		want = append(want, fmt.Sprintf("%s:%d: error contract-schema: %s", input, e.Line, e.Message))
	}
	out, errOut, code := chatlint(t, "", "check", "--format", "contract", input)
	if code != 1 {
		t.Fatalf("check exit %d: %s", code, errOut)
	}
	var got []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, " contract-schema: ") {
			got = append(got, l)
		}
	}
	if len(want) == 0 {
		t.Fatal("the fixture has no schema errors")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("check's contract-schema findings (-want +got):\n%s", diff)
	}
}

// TestValidateInputRealData runs validate-input on public conversation
// records that name their fields differently from the contract (chat_id,
// created_at, messages with created_at): every line must fail, saying which
// fields are missing and which message keys are not allowed.
func TestValidateInputRealData(t *testing.T) {
	input := filepath.Join(repo, "../shared/data/conversation-records/kura-mtbench-conversations.jsonl")
	if _, err := os.Stat(input); err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	report := filepath.Join(t.TempDir(), "report.json")
	out, errOut, code := chatlint(t, "", "validate-input", "--input", input, "--report-json", report, "--max-errors", "1000")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	var rep struct {
		Total   int  `json:"total_lines"`
		Valid   int  `json:"valid_conversation_count"`
		IsValid bool `json:"is_valid"`
		Errors  []struct {
			Line    int    `json:"line_number"`
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Total != 500 || rep.Valid != 0 || rep.IsValid || len(rep.Errors) != 500 {
		t.Fatalf("total %d, valid %d, is_valid %t, %d errors; want 500 lines, all invalid", rep.Total, rep.Valid, rep.IsValid, len(rep.Errors))
	}
	for _, e := range rep.Errors {
		for _, want := range []string{
			"conversation_id: Field required",
			"user_id: Field required",
			"timestamp: Field required",
			"messages.0.created_at: Extra inputs are not permitted",
		} {
			if e.Code != "schema_validation_failed" || !strings.Contains(e.Message, want) {
				t.Fatalf("line %d: [%s] %s\nwant schema_validation_failed naming %q", e.Line, e.Code, e.Message, want)
			}
		}
	}
}

// TestMessagesOnlyReplacesAtomically checks that the snapshot replaces an
// existing file keeping its mode, and that standard input works.
func TestMessagesOnlyReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	out := writeFile(t, dir, "conversation.jsonl", "old content\n")
	if err := os.Chmod(out, 0o600); err != nil {
		t.Fatal(err)
	}
	in := `{"conversation_id": "c1", "user_id": "u", "timestamp": "2026-02-10", "messages": [{"content": "hi", "role": "user"}], "metadata": {"x": 1}}` + "\n"
	if _, errOut, code := chatlint(t, in, "validate-input", "--input", "-", "--write-messages-only", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"conversation_id": "c1", "messages": [{"role": "user", "content": "hi"}]}` + "\n"; string(b) != want {
		t.Errorf("snapshot = %q, want %q", b, want)
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after replace: %v, %v; want 0600", fi.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}
