package main

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/cmd/chatlint/internal/fix"
	"github.com/chatlint/chatlint/engine/atomicfile"
)

const (
	// needsFix has a tool message answering no call: openai-tools drops it.
	needsFix = `{"id":"r1","messages":[{"role":"user","content":"q"},{"role":"tool","tool_call_id":"c9","content":"stray"},{"role":"assistant","content":"a"}]}`
	fixedRec = `{"id":"r1","messages":[{"role":"user","content":"q"},{"role":"assistant","content":"a"}]}`
)

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func backups(t *testing.T, p string) []string {
	t.Helper()
	m, err := filepath.Glob(p + ".bak-*")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestFixInPlace(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.jsonl", cleanRecord+"\r\n"+needsFix+"\n")
	os.Chmod(a, 0o640)
	c := writeFile(t, dir, "c.jsonl", needsFix+"\n")
	os.Chmod(c, 0o600)
	b := writeFile(t, dir, "b.jsonl", cleanRecord+"\n")
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	os.Chtimes(b, old, old)

	stdout, stderr, code := chatlint(t, "", "fix", "--in-place", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if got := mustRead(t, a); got != cleanRecord+"\r\n"+fixedRec+"\n" {
		t.Errorf("a.jsonl = %q", got)
	}
	for p, mode := range map[string]fs.FileMode{a: 0o640, c: 0o600} {
		fi, _ := os.Stat(p)
		if fi.Mode().Perm() != mode {
			t.Errorf("%s: mode %v, want %v", p, fi.Mode().Perm(), mode)
		}
		baks := backups(t, p)
		if len(baks) != 1 {
			t.Fatalf("%s: backups %v", p, baks)
		}
		if fi, _ := os.Stat(baks[0]); fi.Mode().Perm() != mode {
			t.Errorf("backup %s: mode %v", baks[0], fi.Mode().Perm())
		}
		if !strings.Contains(stdout, "backup "+baks[0]) {
			t.Errorf("stdout does not name the backup %s:\n%s", baks[0], stdout)
		}
	}
	if got := mustRead(t, backups(t, a)[0]); got != cleanRecord+"\r\n"+needsFix+"\n" {
		t.Errorf("backup of a = %q", got)
	}
	rejects := mustRead(t, a+".rejects.jsonl")
	want := `{"file":"` + a + `","line":2,"record":"r1","rule":"tool-result-unknown-id","reason":"tool message 1 answers \"c9\", which no earlier assistant message issued","op":"drop_message","target":"/messages/1","data":{"role":"tool","tool_call_id":"c9","content":"stray"}}` + "\n"
	if diff := cmp.Diff(want, rejects); diff != "" {
		t.Errorf("rejects (-want +got):\n%s", diff)
	}
	// The clean file is untouched: bytes and modification time, no backup.
	if fi, _ := os.Stat(b); !fi.ModTime().Equal(old) || mustRead(t, b) != cleanRecord+"\n" || len(backups(t, b)) != 0 {
		t.Errorf("b.jsonl was touched: %v %v", fi.ModTime(), backups(t, b))
	}
	if !strings.Contains(stdout, b+": 0 of 1 record changed, 0 actions; unchanged") {
		t.Errorf("stdout:\n%s", stdout)
	}

	// A second run changes nothing and makes no backup.
	stdout, _, code = chatlint(t, "", "fix", "--in-place", dir)
	if code != 0 || len(backups(t, a)) != 1 || !strings.Contains(stdout, "fixed 0 of 4 records") {
		t.Errorf("second run: exit %d, backups %v\n%s", code, backups(t, a), stdout)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*")); len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

// TestFixWriteFailures simulates a failing backup and a failing rename:
// the original keeps its bytes, nothing is left behind, exit 2.
func TestFixWriteFailures(t *testing.T) {
	for _, c := range []struct {
		name  string
		patch func()
	}{
		{"backup", func() {
			fix.BackupFile = func(string, time.Time) (string, error) { return "", errors.New("disk full") }
		}},
		{"rename", func() {
			fix.CommitFile = func(f *atomicfile.File) error {
				f.Abort() // what Commit does when its rename fails
				return errors.New("rename: simulated failure")
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c0, b := fix.CommitFile, fix.BackupFile
			defer func() { fix.CommitFile, fix.BackupFile = c0, b }()
			c.patch()
			dir := t.TempDir()
			p := writeFile(t, dir, "a.jsonl", needsFix+"\n")
			stdout, stderr, code := chatlint(t, "", "fix", "--in-place", p)
			if code != cmdutil.ExitError || !strings.Contains(stderr, "not written") {
				t.Errorf("exit %d, stderr %q", code, stderr)
			}
			if strings.Contains(stdout, "fixed 1") {
				t.Errorf("stdout claims the unwritten record fixed:\n%s", stdout)
			}
			if got := mustRead(t, p); got != needsFix+"\n" {
				t.Errorf("original changed: %q", got)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				t.Errorf("left behind: %v", names)
			}
		})
	}
}

func TestFixOutputs(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.jsonl", needsFix+"\n")
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	b := writeFile(t, sub, "b.jsonl", cleanRecord+"\n")
	empty := writeFile(t, dir, "empty.jsonl", "\n\n")
	t.Chdir(dir)

	t.Run("folder for several inputs", func(t *testing.T) {
		_, stderr, code := chatlint(t, "", "fix", "-o", "out/", "a.jsonl", "sub", "empty.jsonl")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		for p, want := range map[string]string{"out/a.jsonl": fixedRec + "\n", "out/sub/b.jsonl": cleanRecord + "\n", "out/empty.jsonl": ""} {
			if got := mustRead(t, p); got != want {
				t.Errorf("%s = %q, want %q", p, got, want)
			}
		}
		if _, err := os.Stat("out/a.jsonl.rejects.jsonl"); err != nil {
			t.Error(err)
		}
		if mustRead(t, a) != needsFix+"\n" || mustRead(t, b) != cleanRecord+"\n" || mustRead(t, empty) != "\n\n" {
			t.Error("an input changed")
		}
	})
	t.Run("a folder with one file", func(t *testing.T) {
		_, stderr, code := chatlint(t, "", "fix", "-o", "out2/", "sub")
		if code != 0 || mustRead(t, "out2/sub/b.jsonl") != cleanRecord+"\n" {
			t.Errorf("exit %d: %s", code, stderr)
		}
	})
	t.Run("stdin to a file", func(t *testing.T) {
		_, stderr, code := chatlint(t, needsFix+"\n", "fix", "-o", "stdin.jsonl", "-")
		if code != 0 || mustRead(t, "stdin.jsonl") != fixedRec+"\n" {
			t.Errorf("exit %d: %s", code, stderr)
		}
		if !strings.Contains(mustRead(t, "stdin.jsonl.rejects.jsonl"), `"file":"<stdin>"`) {
			t.Error("rejects do not name <stdin>")
		}
	})
	t.Run("dry run", func(t *testing.T) {
		stdout, _, code := chatlint(t, "", "fix", "--dry-run", "a.jsonl")
		// The record before and after, as JSON lines.
		want := "a.jsonl:1: record r1: tool-result-unknown-id (1)\n-" + needsFix + "\n+" + fixedRec + "\n"
		if code != 0 || !strings.HasPrefix(stdout, want) || !strings.Contains(stdout, "would fix 1 of 1 record") {
			t.Errorf("exit %d, stdout:\n%s\nwant it to start with:\n%s", code, stdout, want)
		}
		if _, err := os.Stat("a.jsonl.rejects.jsonl"); err == nil || len(backups(t, "a.jsonl")) > 0 {
			t.Error("dry run wrote something")
		}
	})
}

func TestFixUsage(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "a.jsonl", cleanRecord+"\n")
	j := writeFile(t, dir, "d.json", "["+cleanRecord+"]")
	for _, c := range []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no inputs", []string{"fix", "--dry-run"}, "fix needs at least one file"},
		{"no mode", []string{"fix", p}, "exactly one of -o OUT, --in-place or --dry-run"},
		{"two modes", []string{"fix", "--in-place", "--dry-run", p}, "exactly one of"},
		{"unknown pack", []string{"fix", "--dry-run", "--pack", "builtin:nope", p}, "no built-in pack"},
		{"missing input", []string{"fix", "--dry-run", filepath.Join(dir, "nope.jsonl"), p}, "nope.jsonl: no such file"},
		{"several inputs to a file", []string{"fix", "-o", p, p, j}, "several inputs are written to a folder"},
		{"stdin in place", []string{"fix", "--in-place", "-"}, "standard input can only be fixed"},
		{"output folder missing parent", []string{"fix", "-o", filepath.Join(dir, "no", "such", "x.jsonl"), p}, "not written"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, code := chatlint(t, "", c.args...)
			if code != cmdutil.ExitError || !strings.Contains(stderr, c.stderr) {
				t.Errorf("exit %d, stderr %q, want %q", code, stderr, c.stderr)
			}
		})
	}
}

// TestFixUserPackUnitTests runs the Rego unit tests of the user pack that
// docs/writing-rules.md shows.
func TestFixUserPackUnitTests(t *testing.T) {
	stdout, stderr, code := chatlint(t, "", "test", "--no-builtin", "--pack", filepath.Join(repo, "fixtures/fix/user-pack/pack"))
	if code != 0 || !strings.Contains(stdout, "2 passed, 0 failed") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestFixClearsIntegrityFindings runs fix over the integrity pack's own bad
// fixtures: after the packs named, check no longer reports the rule the
// fixture is about.
func TestFixClearsIntegrityFindings(t *testing.T) {
	both := []string{"--pack", "builtin:openai-tools", "--pack", "builtin:transcript"}
	for dir, packs := range map[string][]string{
		"tool-result-orphan":      nil, // the default pack, openai-tools
		"tool-result-duplicate":   nil,
		"tool-call-id-reused":     nil,
		"tool-result-missing":     both,
		"tool-call-missing-input": {"--pack", "builtin:transcript"},
	} {
		t.Run(dir, func(t *testing.T) {
			in := filepath.Join(repo, "policies/integrity/tests", dir, "bad.jsonl")
			before, _, _ := chatlint(t, "", "check", "--allow-no-tools", in)
			if !strings.Contains(before, " "+dir+": ") {
				t.Fatalf("the fixture does not trigger %s:\n%s", dir, before)
			}
			out := filepath.Join(t.TempDir(), "out.jsonl")
			args := append(append([]string{"fix"}, packs...), "-o", out, in)
			if stdout, stderr, code := chatlint(t, "", args...); code != 0 {
				t.Fatalf("fix: exit %d\n%s%s", code, stdout, stderr)
			}
			after, _, _ := chatlint(t, "", "check", "--allow-no-tools", out)
			if strings.Contains(after, " "+dir+": ") {
				t.Errorf("check still reports %s after fix:\n%s", dir, after)
			}
		})
	}
}

// TestFixWorkersDoNotChangeOutput: the same bytes, rejects and summary for
// any number of workers.
func TestFixWorkersDoNotChangeOutput(t *testing.T) {
	inputs, _ := filepath.Glob(filepath.Join(repo, "fixtures/fix/*/input.jsonl"))
	dir := t.TempDir()
	var all strings.Builder
	for _, in := range inputs {
		if b := mustRead(t, in); strings.HasPrefix(b, `{"id"`) { // the chat cases
			all.WriteString(strings.TrimRight(b, "\n") + "\n")
		}
	}
	in := writeFile(t, dir, "all.jsonl", all.String())
	var first string
	for _, w := range []string{"1", "2", "4"} {
		out := filepath.Join(dir, "out"+w+".jsonl")
		stdout, stderr, code := chatlint(t, "", "fix", "--workers", w, "-o", out, in)
		if code != 0 && code != 1 { // 1: some records (messages without a role) are left as they were
			t.Fatalf("exit %d: %s", code, stderr)
		}
		got := mustRead(t, out) + mustRead(t, out+".rejects.jsonl") + strings.ReplaceAll(stdout, "out"+w, "outN") + stderr
		if first == "" {
			first = got
			if !strings.Contains(stdout, "records changed") {
				t.Fatalf("nothing to compare:\n%s", stdout)
			}
			continue
		}
		if diff := cmp.Diff(first, got); diff != "" {
			t.Errorf("--workers %s (-1 worker +%s):\n%s", w, w, diff)
		}
	}
}

// failingReader gives its data, then an error instead of the end.
type failingReader struct{ data io.Reader }

func (r *failingReader) Read(p []byte) (int, error) {
	n, err := r.data.Read(p)
	if err == io.EOF {
		return n, errors.New("device error")
	}
	return n, err
}

// TestFixReadError: an input that cannot be read to its end is not written
// (a truncated output must not stand for it), and the run fails.
func TestFixReadError(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.jsonl")
	var stdout, stderr strings.Builder
	in := &failingReader{strings.NewReader(needsFix + "\n" + cleanRecord + "\n")}
	code := run(context.Background(), []string{"fix", "-o", out, "-"}, cmdutil.IOStreams{In: in, Out: &stdout, ErrOut: &stderr})
	if code != cmdutil.ExitError || !strings.Contains(stderr.String(), "device error") || !strings.Contains(stdout.String(), "not written") {
		t.Errorf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}

// TestFixThenCheckFolder: after fix --in-place on a folder, check on the
// same folder is clean for what the pack fixes, and does not read the
// rejects and backups fix left there.
func TestFixThenCheckFolder(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.jsonl", needsFix+"\n")
	if _, stderr, code := chatlint(t, "", "fix", "--in-place", dir); code != 0 {
		t.Fatalf("fix: exit %d: %s", code, stderr)
	}
	stdout, stderr, code := chatlint(t, "", "check", "--allow-no-tools", dir)
	if code != 0 || !strings.Contains(stdout, "(1 file, 1 record") {
		t.Errorf("check after fix: exit %d\n%s%s", code, stdout, stderr)
	}
}

// A line the reader hands on before the file's format is known (here: a
// line that is not JSON) is part of its file: the file is written once,
// whole, with that line kept.
func TestFixReaderNoteKeepsFileWhole(t *testing.T) {
	dir := t.TempDir()
	u := writeFile(t, dir, "u.jsonl", "nope\n"+needsFix+"\n")
	out := filepath.Join(dir, "out.jsonl")
	stdout, stderr, code := chatlint(t, "", "fix", "-o", out, u)
	if code != 0 || strings.Contains(stderr, "not written") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	if got := mustRead(t, out); got != "nope\n"+fixedRec+"\n" {
		t.Errorf("output = %q", got)
	}
}

// TestFixOutputNeverAFileNamedFolder: with several inputs, -o must be an
// existing folder or end in "/": out.jsonl became a folder named out.jsonl.
func TestFixOutputNeverAFileNamedFolder(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.jsonl", needsFix+"\n")
	b := writeFile(t, dir, "b.jsonl", cleanRecord+"\n")
	for _, out := range []string{"out.jsonl", "out.json", "newfolder"} {
		p := filepath.Join(dir, out)
		_, stderr, code := chatlint(t, "", "fix", "-o", p, a, b)
		if code != 2 || !strings.Contains(stderr, "several inputs are written to a folder") {
			t.Errorf("-o %s: exit %d, stderr %q; want a usage error", out, code, stderr)
		}
		if _, err := os.Stat(p); err == nil {
			t.Errorf("-o %s: %s was created", out, out)
		}
	}
}

// TestUnknownDisabledRule: a --disable or config entry naming no rule is an
// error naming it with the closest ids (it was accepted silently).
func TestUnknownDisabledRule(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "a.jsonl", cleanRecord+"\n")
	for _, tc := range []struct {
		args []string
		near string
	}{
		{[]string{"check", "--disable", "tool-result-mising", p}, "did you mean tool-result-missing"},
		{[]string{"fix", "--dry-run", "--disable", "tool-result-mising", p}, "did you mean tool-result-pairing"}, // the cleanup packs' rules
	} {
		args := tc.args
		_, stderr, code := chatlint(t, "", args...)
		if code != 2 || !strings.Contains(stderr, `unknown rule "tool-result-mising"`) || !strings.Contains(stderr, tc.near) {
			t.Errorf("%s: exit %d, stderr %q; want 2, the id and a close match", args[0], code, stderr)
		}
	}
	cfg := writeFile(t, dir, ".chatlint.yaml", "rules:\n  tool-result-mising: off\n")
	_, stderr, code := chatlint(t, "", "check", "--config", cfg, p)
	if code != 2 || !strings.Contains(stderr, "did you mean tool-result-missing") {
		t.Errorf("config: exit %d, stderr %q; want 2 and a close match", code, stderr)
	}
	if _, stderr, code := chatlint(t, "", "check", "--disable", "tool-result-missing", p); code != 0 {
		t.Errorf("a known rule: exit %d: %s", code, stderr)
	}
}

// TestCheckMissingInput: a run with no existing input is an error naming
// the path, without a summary that reads like a clean run.
func TestCheckMissingInput(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.jsonl")
	stdout, stderr, code := chatlint(t, "", "check", missing)
	if code != 2 || !strings.Contains(stderr, missing+": no such file or directory") || stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2, the path named, no summary", code, stdout, stderr)
	}
}
