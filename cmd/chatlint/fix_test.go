package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
)

// fixCase is one folder of fixtures/fix: input.jsonl, an optional args file
// (one argument per line, e.g. --pack builtin:transcript; a pack folder is
// named relative to the case folder), and the expected output.jsonl,
// rejects.jsonl (absent when nothing is dropped) and result.txt (exit
// status, stdout and stderr).
type fixCase struct {
	name, dir string
	args      []string
}

func fixCases(t *testing.T) []fixCase {
	t.Helper()
	root, err := filepath.Abs(filepath.Join(repo, "fixtures/fix"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []fixCase
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		c := fixCase{name: e.Name(), dir: filepath.Join(root, e.Name())}
		if b, err := os.ReadFile(filepath.Join(c.dir, "args")); err == nil {
			for _, a := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				if a = strings.TrimSpace(a); a != "" {
					if strings.HasPrefix(a, "./") {
						a = filepath.Join(c.dir, a)
					}
					c.args = append(c.args, a)
				}
			}
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		t.Fatal("no cases under fixtures/fix")
	}
	return out
}

// golden compares got with the case's file name, or rewrites it with
// -update; an empty got means the file must not exist.
func golden(t *testing.T, dir, name string, got []byte) {
	t.Helper()
	p := filepath.Join(dir, name)
	if *update {
		if len(got) == 0 {
			os.Remove(p)
			return
		}
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		want, err = nil, nil
	}
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got; run with -update to accept):\n%s", name, diff)
	}
}

func readOr(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return b
}

// TestFixGolden runs every case of fixtures/fix, then checks that a second
// run changes nothing (same bytes) and that check on the output reports
// none of what the packs fix.
func TestFixGolden(t *testing.T) {
	for _, c := range fixCases(t) {
		t.Run(c.name, func(t *testing.T) {
			work := t.TempDir()
			input, err := os.ReadFile(filepath.Join(c.dir, "input.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, work, "input.jsonl", string(input))
			t.Chdir(work)

			args := append(append([]string{"fix"}, c.args...), "-o", "output.jsonl", "input.jsonl")
			stdout, stderr, code := chatlint(t, "", args...)
			result := fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", code, stdout, stderr)
			golden(t, c.dir, "result.txt", []byte(result))
			output := readOr(t, "output.jsonl")
			golden(t, c.dir, "output.jsonl", output)
			golden(t, c.dir, "rejects.jsonl", readOr(t, "output.jsonl.rejects.jsonl"))
			if code == cmdutil.ExitError {
				return
			}

			// Idempotence: fixing the output again changes nothing.
			args = append(append([]string{"fix"}, c.args...), "-o", "again.jsonl", "output.jsonl")
			out2, err2, code2 := chatlint(t, "", args...)
			if again := readOr(t, "again.jsonl"); !bytes.Equal(again, output) || code2 != code {
				t.Errorf("a second fix changed the output (exit %d):\n%s%s\n%s", code2, out2, err2, cmp.Diff(string(output), string(again)))
			}
			if _, err := os.Stat("again.jsonl.rejects.jsonl"); err == nil {
				t.Errorf("a second fix dropped something:\n%s", readOr(t, "again.jsonl.rejects.jsonl"))
			}

			// check on the output: none of the findings the packs fix.
			golden(t, c.dir, "check.txt", []byte(checkFixed(t, c, "output.jsonl")))
		})
	}
}

// checkFixed runs check on a fixed file and fails on a finding of a rule the
// case's packs fix; it returns check's output.
func checkFixed(t *testing.T, c fixCase, file string) string {
	t.Helper()
	format, findings := checkFindings(t, file)
	packs := []string{"openai-tools"}
	if b, _ := os.ReadFile(filepath.Join(c.dir, "input.jsonl")); bytes.Contains(b, []byte(`"type":"session"`)) {
		packs = []string{"transcript"}
	} else if bytes.Contains(b, []byte(`"sessionId":`)) || bytes.Contains(b, []byte(`"payload":`)) {
		packs = []string{"openai-tools", "transcript"} // claude-code, codex: both stages
	}
	if len(c.args) > 0 {
		packs = nil
		for i, a := range c.args {
			if a == "--pack" && i+1 < len(c.args) {
				packs = append(packs, strings.TrimPrefix(c.args[i+1], "builtin:"))
			}
		}
	}
	// A case may list, in check-allowed, rules check may still report after
	// the fix because the pack leaves them by design (lines starting with #
	// say why).
	allowed := map[string]bool{}
	if b, err := os.ReadFile(filepath.Join(c.dir, "check-allowed")); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				allowed[l] = true
			}
		}
	}
	// Every built-in pack of the case is held to what it claims to repair,
	// in the file's format and each record's tool-call mode (custom.formats,
	// custom.modes).
	var claims []map[string][]repairClaim
	for _, p := range packs {
		claims = append(claims, packClaims(t, p))
	}
	modes := recordModes(t, file)
	var b strings.Builder
	for _, f := range findings {
		fmt.Fprintf(&b, "%d %s: %s\n", f.Line, f.Rule, f.Message)
		if by := claimedBy(claims, f.Rule, format, modes[f.Record]); by != "" && !allowed[f.Rule] {
			t.Errorf("check after fix reports %s at line %d (%s mode), which %s claims to repair: %s", f.Rule, f.Line, modes[f.Record], by, f.Message)
		}
	}
	return b.String()
}
