package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
)

var update = flag.Bool("update", false, "rewrite the golden files under fixtures/golden")

// chatlint runs the command line in-process and returns stdout, stderr and
// the exit status.
func chatlint(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, cmdutil.IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut})
	return out.String(), errOut.String(), code
}

// repo is the path of the repository root from this package.
const repo = "../.."

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const (
	cleanRecord = `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}`
	emptyTurn   = `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":""}]}`
)

func TestCheckExitCodes(t *testing.T) {
	dir := t.TempDir()
	clean := writeFile(t, dir, "clean.jsonl", cleanRecord+"\n")
	warn := writeFile(t, dir, "warn.jsonl", emptyTurn+"\n")
	broken := writeFile(t, dir, "broken.jsonl", cleanRecord+"\n{\"messages\": [\n"+emptyTurn+"\n")
	badPack := t.TempDir()
	writeFile(t, badPack, "bad.rego", "package chatlint.bad\n\ndeny contains f if {\n\tf := \n}\n")
	team := filepath.Join(repo, "fixtures/packs/team")
	pack := []string{"--no-builtin", "--pack", team}

	tests := []struct {
		name       string
		args       []string
		stdin      string
		want       int
		wantOut    string // substring of stdout
		wantStderr string // substring of stderr
	}{
		{name: "clean", args: append([]string{"check", clean}, pack...), want: 0, wantOut: "0 errors, 0 warnings, 0 infos (1 file, 1 record; chat: 1 file, 1 record)"},
		{name: "warning below fail level", args: append([]string{"check", warn}, pack...), want: 0, wantOut: "warn.jsonl:1: warning no-empty-assistant: assistant message 1 is empty"},
		{name: "fail on warning", args: append([]string{"check", "--fail-on", "warning", warn}, pack...), want: 1},
		{name: "fail on never", args: append([]string{"check", "--fail-on", "never", broken}, pack...), want: 0},
		{name: "syntax error fails, later lines still checked", args: append([]string{"check", broken}, pack...), want: 1,
			wantOut: "broken.jsonl:3: warning no-empty-assistant"},
		{name: "stdin", args: append([]string{"check", "-"}, pack...), stdin: emptyTurn + "\n", want: 0, wantOut: "<stdin>:1: warning no-empty-assistant"},
		{name: "no inputs", args: []string{"check"}, want: 2, wantStderr: "check needs at least one file"},
		{name: "unknown flag", args: []string{"check", "--nope", clean}, want: 2, wantStderr: "unknown flag: --nope"},
		{name: "bad fail-on", args: []string{"check", "--fail-on", "fatal", clean}, want: 2, wantStderr: "--fail-on"},
		{name: "bad format", args: []string{"check", "--format", "csv", clean}, want: 2, wantStderr: `unknown input format "csv"`},
		{name: "bad output", args: []string{"check", "-o", "xml", clean}, want: 2, wantStderr: `unknown output format "xml"`},
		{name: "missing path is reported, others checked", args: append([]string{"check", filepath.Join(dir, "nope.jsonl"), warn}, pack...), want: 2,
			wantOut: "warn.jsonl:1: warning", wantStderr: "nope.jsonl: no such file or directory"},
		{name: "policy that does not compile", args: []string{"check", "--no-builtin", "--pack", badPack, clean}, want: 2,
			wantStderr: "bad.rego:5:1: rego_parse_error: unexpected } token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := chatlint(t, tt.stdin, tt.args...)
			if code != tt.want {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.want, out, errOut)
			}
			if !strings.Contains(out, tt.wantOut) {
				t.Errorf("stdout lacks %q:\n%s", tt.wantOut, out)
			}
			if !strings.Contains(errOut, tt.wantStderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.wantStderr, errOut)
			}
		})
	}
}

func TestCheckJSONShape(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "a.jsonl", emptyTurn+"\nnot json\n")
	out, _, code := chatlint(t, "", "check", "-o", "json", "--no-builtin", "--pack", filepath.Join(repo, "fixtures/packs/team"), f)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	var got struct {
		Summary  map[string]any   `json:"summary"`
		Findings []map[string]any `json:"findings"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("output is not the documented JSON: %v\n%s", err, out)
	}
	wantSummary := map[string]any{"files": 1.0, "records": 2.0, "errors": 1.0, "warnings": 1.0, "infos": 0.0,
		"inputs": []any{map[string]any{"file": f, "format": "chat", "records": 2.0}}}
	if diff := cmp.Diff(wantSummary, got.Summary); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	want := []map[string]any{
		{"rule": "no-empty-assistant", "severity": "warning", "message": "assistant message 1 is empty", "file": f, "line": 1.0,
			"pack": "team", "record": f + ":1", "message_index": 1.0, "path": "/messages/1"},
		{"rule": "jsonl-syntax", "severity": "error", "message": "invalid JSON: invalid character 'o' in literal null (expecting 'u') (byte 2)",
			"file": f, "line": 2.0, "pack": "core"},
	}
	if diff := cmp.Diff(want, got.Findings); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// TestWorkersDoNotChangeOutput checks that output order is the same whatever
// the number of workers.
func TestWorkersDoNotChangeOutput(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 300 {
		switch i % 3 {
		case 0:
			b.WriteString(emptyTurn)
		case 1:
			b.WriteString(cleanRecord)
		default:
			b.WriteString("{broken")
		}
		b.WriteByte('\n')
	}
	f := writeFile(t, dir, "many.jsonl", b.String())
	args := []string{"check", "--no-builtin", "--pack", filepath.Join(repo, "fixtures/packs/team"), f}
	one, errOut, _ := chatlint(t, "", append(args, "--workers", "1")...)
	// Two runs that both failed early would print the same nothing.
	if strings.Count(one, ": warning no-empty-assistant:") != 100 || strings.Count(one, ": error jsonl-syntax:") != 100 {
		t.Fatalf("--workers 1 did not report the 200 defects:\n%.500s%s", one, errOut)
	}
	for _, w := range []string{"2", "4", "8"} {
		many, _, _ := chatlint(t, "", append(args, "--workers", w)...)
		if diff := cmp.Diff(one, many); diff != "" {
			t.Fatalf("--workers %s output differs (-1 worker +%s workers):\n%s", w, w, diff)
		}
	}
}

// TestGolden compares whole outputs on the shipped sample with the files
// under fixtures/golden. Run `go test ./cmd/chatlint -update` to rewrite
// them, then review the diff.
func TestGolden(t *testing.T) {
	tests := []struct {
		golden string
		args   []string
	}{
		{"check-sample.txt", []string{"check", "fixtures/sample"}},
		{"check-sample.json", []string{"check", "-o", "json", "fixtures/sample"}},
		{"check-sample-team.txt", []string{"check", "--pack", "fixtures/packs/team", "fixtures/sample"}},
		{"check-sample.sarif", []string{"check", "-o", "sarif", "fixtures/sample"}},
		{"check-sample.junit.xml", []string{"check", "-o", "junit", "fixtures/sample"}},
		{"check-sample.jsonl", []string{"check", "-o", "jsonl", "fixtures/sample"}},
		{"rules.txt", []string{"rules"}},
	}
	t.Chdir(repo)
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			out, errOut, _ := chatlint(t, "", tt.args...)
			if errOut != "" {
				t.Fatalf("stderr: %s", errOut)
			}
			path := filepath.Join("fixtures/golden", tt.golden)
			if *update {
				if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), out); diff != "" {
				t.Errorf("%s (-want +got):\n%s", path, diff)
			}
		})
	}
}

// TestRulesDocIsCurrent fails when docs/rules.md no longer matches the rule
// metadata. Regenerate it with `go test ./cmd/chatlint -update` (or
// `chatlint rules -o markdown > docs/rules.md`).
func TestRulesDocIsCurrent(t *testing.T) {
	t.Chdir(repo)
	out, errOut, code := chatlint(t, "", "rules", "-o", "markdown")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if *update {
		if err := os.WriteFile("docs/rules.md", []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), out); diff != "" {
		t.Errorf("docs/rules.md is stale; run go test ./cmd/chatlint -update (-file +generated):\n%s", diff)
	}
}

// TestAllowNoTools checks the switch for datasets without tools, and that
// --disable turns any rule off. A record without tool calls needs no tools
// list under the default profile; the export profile requires one.
func TestAllowNoTools(t *testing.T) {
	f := writeFile(t, t.TempDir(), "plain.jsonl", cleanRecord+"\n")
	tests := []struct {
		args    []string
		want    int
		wantOut string
	}{
		{[]string{"check", f}, 0, "0 errors"},
		{[]string{"check", "--profile", "export", f}, 1, "plain.jsonl:1: error tools-shape"},
		{[]string{"check", "--profile", "export", "--allow-no-tools", f}, 0, "0 errors"},
		{[]string{"check", "--profile", "export", "--disable", "tools-shape", f}, 0, "0 errors"},
	}
	for _, tt := range tests {
		out, errOut, code := chatlint(t, "", tt.args...)
		if code != tt.want || !strings.Contains(out, tt.wantOut) {
			t.Errorf("%v: exit %d (want %d), output:\n%s%s", tt.args, code, tt.want, out, errOut)
		}
	}
	// rules has no --allow-no-tools flag: rejected, not ignored.
	if _, _, code := chatlint(t, "", "rules", "--allow-no-tools"); code != 2 {
		t.Errorf("rules --allow-no-tools: exit %d, want 2", code)
	}
}

func TestTestCommand(t *testing.T) {
	failing := t.TempDir()
	writeFile(t, failing, "p.rego", "package chatlint.p\n\nx := 1\n")
	writeFile(t, failing, "p_test.rego", "package chatlint.p_test\n\nimport data.chatlint.p\n\ntest_ok if p.x == 1\n\ntest_wrong if p.x == 2\n")
	broken := t.TempDir()
	writeFile(t, broken, "p_test.rego", "package chatlint.p_test\n\ntest_x if {\n")
	tests := []struct {
		name    string
		args    []string
		want    int
		wantOut string
	}{
		{"passing pack", []string{"test", "--no-builtin", "--pack", filepath.Join(repo, "fixtures/packs/team")}, 0, "4 passed, 0 failed"},
		{"failing test", []string{"test", "--no-builtin", "--pack", failing}, 1, "p_test.rego:7: FAIL data.chatlint.p_test.test_wrong"},
		{"broken test file", []string{"test", "--no-builtin", "--pack", broken}, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := chatlint(t, "", tt.args...)
			if code != tt.want || !strings.Contains(out, tt.wantOut) {
				t.Errorf("exit %d (want %d)\n%s%s", code, tt.want, out, errOut)
			}
		})
	}
}

// TestBenchFloorPack: scripts/bench measures its floor with this pack; check
// refuses a run with no rule, so a floor without it would measure an error.
func TestBenchFloorPack(t *testing.T) {
	out, errOut, code := chatlint(t, "", "check", "--no-config", "--no-builtin", "--pack", filepath.Join(repo, "scripts/bench-floor"), filepath.Join(repo, "fixtures/bench/chat.jsonl"))
	if code != 0 || !strings.Contains(out, "0 errors, 0 warnings, 0 infos") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

// TestBenchTeamPacks: scripts/bench matrix fills in the team rules of
// scripts/bench-team at a finding density; both must load, and the plain
// one and the one with every (the matrix also runs it on topdown, rego-o)
// must find the same records.
func TestBenchTeamPacks(t *testing.T) {
	counts := map[string]string{}
	for _, src := range []string{"compiled", "outside"} {
		in, err := os.ReadFile(filepath.Join(repo, "scripts/bench-team", src+".rego.in"))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "team.rego"), []byte(strings.Replace(string(in), "MOD == REM", "2 == 0", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := chatlint(t, "", "check", "--no-config", "--fail-on", "never", "--no-builtin", "--pack", dir, filepath.Join(repo, "fixtures/bench/chat.jsonl"))
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != 0 || len(lines) < 2 {
			t.Fatalf("%s: exit %d, %d lines\n%s%s", src, code, len(lines), out, errOut)
		}
		counts[src] = lines[len(lines)-1]
		if strings.HasPrefix(counts[src], "0 errors") {
			t.Errorf("%s: no finding at about half the records: %s", src, counts[src])
		}
	}
	if counts["compiled"] != counts["outside"] {
		t.Errorf("the two team rules disagree:\n%s\n%s", counts["compiled"], counts["outside"])
	}
}
