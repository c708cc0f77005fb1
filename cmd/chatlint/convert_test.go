package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/cmd/chatlint/internal/convert"
)

// TestConvertGolden runs convert on each case of fixtures/convert: the case's
// logs/ folder with the flags of its args file (one per line), and compares
// the output folder and standard output (expected/stdout.txt, ending with the
// exit status) with expected/. Run `go test ./cmd/chatlint -run
// TestConvertGolden -update` to rewrite expected/ and review the diff.
func TestConvertGolden(t *testing.T) {
	convert.Rand = func(i int) io.Reader {
		return rand.NewChaCha8([32]byte{byte(i), byte(i >> 8), 'c', 'h', 'a', 't', 'l', 'i', 'n', 't'})
	}
	defer func() { convert.Rand = nil }()
	cases, err := filepath.Glob(filepath.Join(repo, "fixtures/convert/*/logs"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no cases under fixtures/convert (%v)", err)
	}
	for _, logs := range cases {
		dir := filepath.Dir(logs)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			out := t.TempDir()
			args := []string{"convert", "--logs", rel(t, logs), "--output", out, "--workers", "3"}
			if b, err := os.ReadFile(filepath.Join(dir, "args")); err == nil {
				for _, a := range strings.Split(strings.TrimSpace(string(b)), "\n") {
					if a = strings.TrimSpace(a); a != "" {
						args = append(args, strings.NewReplacer("CASE", rel(t, dir), "OUT", out).Replace(a))
					}
				}
			}
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), args, cmdutil.IOStreams{In: strings.NewReader(""), Out: &stdout, ErrOut: &stderr})
			got := readTree(t, out)
			got["stdout.txt"] = strings.ReplaceAll(stdout.String(), out, "OUT") + "[exit " + string(rune('0'+code)) + "]\n"
			if stderr.Len() > 0 {
				got["stderr.txt"] = strings.ReplaceAll(stderr.String(), out, "OUT")
			}
			for name, content := range got {
				got[name] = strings.ReplaceAll(content, out, "OUT")
			}
			expDir := filepath.Join(dir, "expected")
			if *update {
				os.RemoveAll(expDir)
				for name, content := range got {
					p := filepath.Join(expDir, name)
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				return
			}
			if diff := cmp.Diff(readTree(t, expDir), got); diff != "" {
				t.Errorf("output differs from %s (-want +got):\n%s", expDir, diff)
			}
		})
	}
}

// rel returns path relative to the test's working folder, as a user would
// type it.
func rel(t *testing.T, path string) string {
	if !filepath.IsAbs(path) {
		return path
	}
	wd, _ := os.Getwd()
	r, err := filepath.Rel(wd, path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// readTree reads every file under dir, keyed by slash path.
func readTree(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(r)] = string(b)
		return nil
	})
	return out
}

// TestConvertAgreesWithCheck converts the integrity fixture and checks the
// dataset it wrote: check must find on the records the same rules convert's
// integrity report names for them (session rules and convert's own lines
// aside, which need the log entries).
func TestConvertAgreesWithCheck(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	logs := filepath.Join(repo, "fixtures/convert/integrity/logs")
	if code := run(context.Background(), []string{"convert", "-l", logs, "-o", out}, cmdutil.IOStreams{Out: &stdout, ErrOut: &stderr}); code != 0 {
		t.Fatalf("convert exit %d: %s", code, stderr.String())
	}
	type report struct {
		Findings []struct {
			Rule, Record string
			Line         int
		} `json:"findings"`
	}
	// The first record is defects.jsonl's; the second has no messages, where
	// convert, like the reference, says nothing more about the record.
	count := func(data []byte, fromConvert bool) map[string]int {
		var r report
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		n := map[string]int{}
		for _, f := range r.Findings {
			if fromConvert && f.Record != "defects" || !fromConvert && f.Line != 1 {
				continue
			}
			switch f.Rule {
			case "role-sequence-mismatch", "trailing-short-entry", "log-entry-skipped", "session-invalid", "record-missing":
				continue
			}
			n[f.Rule]++
		}
		return n
	}
	conv, err := os.ReadFile(filepath.Join(out, "integrity-report.json"))
	if err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	run(context.Background(), []string{"check", "-o", "json", filepath.Join(out, "2026-06-01.jsonl")}, cmdutil.IOStreams{Out: &stdout, ErrOut: &stderr})
	if diff := cmp.Diff(count(conv, true), count(stdout.Bytes(), false)); diff != "" {
		t.Errorf("rules found by convert (-) and by check on its output (+):\n%s", diff)
	}
}

// TestConvertWorkersDoNotChangeOutput converts the same logs with 1 and 4
// workers and compares everything written.
func TestConvertWorkersDoNotChangeOutput(t *testing.T) {
	convert.Rand = func(i int) io.Reader { return rand.NewChaCha8([32]byte{byte(i)}) }
	defer func() { convert.Rand = nil }()
	var trees []map[string]string
	for _, w := range []string{"1", "4"} {
		out := t.TempDir()
		var stdout bytes.Buffer
		run(context.Background(), []string{"convert", "-l", filepath.Join(repo, "fixtures/convert/keep-going/logs"), "-o", out, "--keep-going", "--workers", w}, cmdutil.IOStreams{Out: &stdout, ErrOut: io.Discard})
		tree := readTree(t, out)
		tree["stdout"] = stdout.String()
		for k, v := range tree {
			tree[k] = strings.ReplaceAll(v, out, "OUT")
		}
		trees = append(trees, tree)
	}
	if diff := cmp.Diff(trees[0], trees[1]); diff != "" {
		t.Errorf("1 worker (-) and 4 workers (+):\n%s", diff)
	}
}

func TestConvertUsageErrors(t *testing.T) {
	logs := filepath.Join(repo, "fixtures/convert/basic/logs")
	tests := []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"-l", filepath.Join(repo, "nope")}, 2, "does not exist or is not a directory"},
		{[]string{"-l", filepath.Join(logs, "2026-01-13/weather-paris-01.jsonl")}, 2, "is not a directory"},
		{[]string{"-l", logs, "-s", "--group-by", "scenario"}, 2, "--single-file cannot be combined with --group-by scenario"},
		{[]string{"-l", logs, "--group-by", "week"}, 2, `--group-by: want date or scenario, not "week"`},
		{[]string{"-l", logs, "--fail-on", "info"}, 2, "--fail-on"},
		{[]string{"-l", logs, "--cleanup", filepath.Join(repo, "nope")}, 2, "--cleanup: pack stat"},
		{[]string{"-l", logs, "--cleanup", "builtin:nope"}, 2, `--cleanup: no built-in pack "nope"`},
		{[]string{"-l", logs, "extra"}, 2, "unknown command"},
		{[]string{"-l", logs, "--fail-on", "warning"}, 1, ""},
		{[]string{"-l", logs, "--fail-on", "error", "--no-integrity-analysis"}, 0, ""},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		args := append([]string{"convert", "-o", t.TempDir()}, tt.args...)
		code := run(context.Background(), args, cmdutil.IOStreams{Out: io.Discard, ErrOut: &stderr})
		if code != tt.code || !strings.Contains(stderr.String(), tt.err) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tt.args, code, stderr.String(), tt.code, tt.err)
		}
	}
}

// TestConvertNegatedFlags checks that --no-X turns X off and that the last
// of --X and --no-X wins, as in the reference.
func TestConvertNegatedFlags(t *testing.T) {
	logs := filepath.Join(repo, "fixtures/convert/flags-off/logs")
	for _, tt := range []struct {
		args  []string
		plain bool // the address is left as it is
	}{
		{nil, false},
		{[]string{"--no-anonymize"}, true},
		{[]string{"--no-anonymize", "--anonymize"}, false},
		{[]string{"--anonymize", "--no-anonymize"}, true},
		{[]string{"--no-anonymize=false"}, false},
	} {
		out := t.TempDir()
		run(context.Background(), append([]string{"convert", "-l", logs, "-o", out}, tt.args...), cmdutil.IOStreams{Out: io.Discard, ErrOut: io.Discard})
		b, err := os.ReadFile(filepath.Join(out, "2026-07-01.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(b), "Jane.Roe@Example.ORG"); got != tt.plain {
			t.Errorf("%v: address kept = %v, want %v", tt.args, got, tt.plain)
		}
	}
}

// The flags of convert --to are refused without it: the drop-in would
// ignore them silently.
func TestConvertToFlagsNeedTo(t *testing.T) {
	for _, flag := range [][]string{{"--keep-reasoning"}, {"--split", "turns"}, {"--model", "gpt-4.1-mini"}, {"--format", "chat"}} {
		_, errOut, code := chatlint(t, "", append([]string{"convert", "-l", t.TempDir()}, flag...)...)
		if code != 2 || !strings.Contains(errOut, "applies to convert --to only") {
			t.Errorf("convert %v: exit %d, %s", flag, code, errOut)
		}
	}
}
