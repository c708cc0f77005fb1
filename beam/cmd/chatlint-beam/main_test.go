package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/google/go-cmp/cmp"
)

func TestMain(m *testing.M) {
	ptest.Main(m)
}

// parse reads args the way main does, on a fresh flag set.
func parse(t *testing.T, args ...string) *options {
	t.Helper()
	o := &options{}
	fs := flag.NewFlagSet("chatlint-beam", flag.ContinueOnError)
	addFlags(fs, o)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	o.noteGiven(fs)
	return o
}

func TestRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out", "findings")
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStderr string
	}{
		{"the sample has errors", []string{"--input", "../../../fixtures/sample/*.jsonl", "--output", out},
			exitFindings, "5 errors, 0 warnings, 0 infos (1 file, 6 records)\nfindings: " + out + "\nsummary: " + out + ".summary.json\n"},
		{"--fail-on never", []string{"--input", "../../../fixtures/sample/*.jsonl", "--output", out, "--fail-on", "never"},
			exitOK, "5 errors, 0 warnings, 0 infos (1 file, 6 records)\n"},
		{"no input", []string{"--output", out},
			exitError, "chatlint-beam: --input and --output are required\n"},
		{"a glob matching nothing", []string{"--input", "../../../fixtures/nothing/*.jsonl", "--output", out},
			exitError, "chatlint-beam: --input ../../../fixtures/nothing/*.jsonl: no file matches\n"},
		{"a directory", []string{"--input", "../../../fixtures/sample", "--output", out},
			exitError, "chatlint-beam: --input ../../../fixtures/sample: matches only directories; give a glob of files, such as '../../../fixtures/sample/*.jsonl'\n"},
		{"an unknown built-in pack", []string{"--input", "x", "--output", out, "--pack", "builtin:nope"},
			exitError, `chatlint-beam: --pack: no built-in pack "nope" (there are builtin:`},
		{"a missing pack folder", []string{"--input", "x", "--output", out, "--pack", "no/such/dir"},
			exitError, "chatlint-beam: --pack: pack stat no/such/dir: no such file or directory\n"},
		{"a bad --fail-on", []string{"--input", "x", "--output", out, "--fail-on", "fatal"},
			exitError, `chatlint-beam: --fail-on: want error, warning, info or never, not "fatal"` + "\n"},
		{"a bad --format", []string{"--input", "x", "--output", out, "--format", "csv"},
			exitError, `chatlint-beam: --format: unknown input format "csv"`},
		{"an unknown profile", []string{"--input", "../../../fixtures/sample/*.jsonl", "--output", out, "--profile", "exprot"},
			exitError, `chatlint-beam: --profile: unknown profile "exprot" (the active packs know default, `},
		{"a config naming an unknown rule", []string{"--input", "../../../fixtures/sample/*.jsonl", "--output", out, "--config", badConfig(t)},
			exitError, `chatlint-beam: config: `},
		{"--config with --fix", []string{"--fix", "--input", "../../../fixtures/sample/*.jsonl", "--output", out, "--config", badConfig(t)},
			exitError, "chatlint-beam: --config applies to checking, not to --fix\n"},
		{"an unknown output scheme", []string{"--input", "../../../fixtures/sample/*.jsonl", "--output", "nofs://bucket/f"},
			exitError, `chatlint-beam: nofs://bucket/f: file system scheme "nofs" not registered`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			code := run(context.Background(), parse(t, tt.args...), &stderr)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.wantCode, stderr.String())
			}
			if !strings.HasPrefix(stderr.String(), tt.wantStderr) {
				t.Errorf("stderr:\n%s\nwant it to start with:\n%s", stderr.String(), tt.wantStderr)
			}
		})
	}
}

func badConfig(t *testing.T) string {
	path := filepath.Join(t.TempDir(), ".chatlint.yaml")
	if err := os.WriteFile(path, []byte("rules:\n  no-such-rule: warning\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRunConfig applies a team's config on the workers as check does: a rule
// turned off is not reported, a rule's level changes its findings, and a
// suppression hides one record's finding.
func TestRunConfig(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".chatlint.yaml")
	src := `rules:
  legacy-function-call: "off"
  tool-result-flagged: warning
suppressions:
  - rule: tool-result-missing
    record: conv-missing-result
    reason: kept as a negative example
`
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "findings")
	var stderr bytes.Buffer
	code := run(context.Background(), parse(t, "--input", "../../../fixtures/sample/*.jsonl", "--output", out, "--config", cfg), &stderr)
	if code != exitFindings {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr.String())
	}
	if want := "2 errors, 1 warning, 0 infos (1 file, 6 records)\n"; !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("stderr:\n%s\nwant it to start with:\n%s", stderr.String(), want)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"legacy-function-call", "tool-result-missing"} {
		if strings.Contains(string(b), gone) {
			t.Errorf("findings still hold %s:\n%s", gone, b)
		}
	}
}

// A team pack's rules compile where the job is launched: a broken pack is a
// usage error, not a job failing on every worker.
func TestRunBrokenPack(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.rego"), []byte("package x\nthis is not rego\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	code := run(context.Background(), parse(t, "--input", "x", "--output", "y", "--pack", dir), &stderr)
	if diff := cmp.Diff(exitError, code); diff != "" {
		t.Errorf("exit code (-want +got):\n%s", diff)
	}
	if !strings.Contains(stderr.String(), "policies do not compile") || !strings.Contains(stderr.String(), "bad.rego:2") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}

// A policy failing on a document (here: the time limit) means the data was
// not fully checked: exit 2, as `chatlint check` does.
func TestRunPolicyErrorExits2(t *testing.T) {
	pack, data := t.TempDir(), t.TempDir()
	slow := `package chatlint.slow

# METADATA
# description: Counts to a very large number on records that ask for it.
# custom:
#   id: slow
deny contains {"rule": "slow", "msg": "slow"} if {
	input.messages[0].text == "slow"
	count([x | some x in numbers.range(1, 100000000)]) > 0
}
`
	if err := os.WriteFile(filepath.Join(pack, "slow.rego"), []byte(slow), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "d.jsonl"), []byte(`{"messages":[{"role":"user","content":"slow"}]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "findings")
	var stderr bytes.Buffer
	code := run(context.Background(), parse(t, "--input", filepath.Join(data, "*.jsonl"), "--output", out,
		"--no-builtin", "--pack", pack, "--rule-timeout", "50ms"), &stderr)
	if code != exitError {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, exitError, stderr.String())
	}
	if !strings.HasPrefix(stderr.String(), "1 error, 0 warnings, 0 infos (1 file, 1 record)\n") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}

// --fix: the closing lines of chatlint fix and where everything went; the
// exit status says whether every document could be fixed; flags that only
// mean something to one mode are refused in the other.
func TestRunFix(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out", "fixed")
	doc := filepath.Join(dir, "doc.json")
	if err := os.WriteFile(doc, []byte("[]"), 0o644); err != nil {
		t.Fatal(err)
	}
	const fx = "../../../fixtures/fix/"
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStderr string
	}{
		{"a chat file and an agent session, default packs", []string{"--fix", "--input", fx + "openai-duplicate/input.jsonl", "--input", fx + "transcript-orphans/input.jsonl", "--output", out},
			exitOK, "fixed 2 of 2 records (2 files, 11 lines, 5 actions, 5 dropped)\n" +
				"  tool-result-pairing          4\n  tool-result-repeated         1\n" +
				"records: " + out + "\nrejects: " + out + ".rejects.jsonl\nnotes: " + out + ".notes.jsonl (0)\nsummary: " + out + ".summary.json\n"},
		{"shards", []string{"--fix", "--input", fx + "openai-duplicate/input.jsonl", "--output", out, "--shards", "2"},
			exitOK, "fixed 1 of 1 record (1 file, 1 line, 1 action, 1 dropped)\n  tool-result-repeated         1\n" +
				"records: " + out + "-*-of-00002\nrejects: " + out + ".rejects.jsonl-*-of-00002\nnotes: " + out + ".notes.jsonl-*-of-00002 (0)\n"},
		{"conflicting actions leave a record as it was", []string{"--fix", "--input", fx + "conflict/input.jsonl", "--pack", fx + "conflict/pack", "--output", out},
			exitFindings, "fixed 1 of 2 records (1 file, 2 lines, 1 action, 0 dropped)\n  shout                        1\n"},
		{"the pass limit", []string{"--fix", "--input", fx + "conflict/input.jsonl", "--pack", fx + "conflict/pack", "--output", out, "--max-passes", "0"},
			exitError, "chatlint-beam: --max-passes: want at least 1\n"},
		{"--max-passes without --fix", []string{"--input", fx + "conflict/input.jsonl", "--output", out, "--max-passes", "3"},
			exitError, "chatlint-beam: --max-passes applies to --fix only\n"},
		{"--fail-on with --fix", []string{"--fix", "--input", fx + "conflict/input.jsonl", "--output", out, "--fail-on", "error"},
			exitError, "chatlint-beam: --fail-on applies to checking, not to --fix\n"},
		{"--no-builtin with --fix", []string{"--fix", "--input", fx + "conflict/input.jsonl", "--output", out, "--no-builtin"},
			exitError, "chatlint-beam: --no-builtin applies to checking, not to --fix\n"},
		{"--allow-no-tools with --fix", []string{"--fix", "--input", fx + "conflict/input.jsonl", "--output", out, "--allow-no-tools"},
			exitError, "chatlint-beam: --allow-no-tools applies to checking, not to --fix\n"},
		{"an unknown cleanup pack", []string{"--fix", "--input", fx + "conflict/input.jsonl", "--output", out, "--pack", "builtin:nope"},
			exitError, `chatlint-beam: --pack: no built-in pack "nope"`},
		{"a .json document", []string{"--fix", "--input", doc, "--output", out},
			exitError, "chatlint-beam: --input " + doc + ": " + doc + ": --fix writes JSON Lines; a .json document is not fixed (convert it to .jsonl first)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			code := run(context.Background(), parse(t, tt.args...), &stderr)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.wantCode, stderr.String())
			}
			if !strings.HasPrefix(stderr.String(), tt.wantStderr) {
				t.Errorf("stderr:\n%s\nwant it to start with:\n%s", stderr.String(), tt.wantStderr)
			}
		})
	}
}

// A rule failing on a document while fixing (here: the time limit) leaves
// the record as it was, notes a policy-error and exits 2, as chatlint fix.
func TestRunFixPolicyErrorExits2(t *testing.T) {
	pack, data := t.TempDir(), t.TempDir()
	slow := `package chatlint.slow

# METADATA
# description: Counts to a very large number on records that ask for it.
# custom:
#   id: slow
deny contains {"rule": "slow", "msg": "slow"} if {
	input.messages[0].text == "slow"
	count([x | some x in numbers.range(1, 100000000)]) > 0
}
`
	if err := os.WriteFile(filepath.Join(pack, "slow.rego"), []byte(slow), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := `{"messages":[{"role":"user","content":"slow"}]}` + "\n"
	if err := os.WriteFile(filepath.Join(data, "d.jsonl"), []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "fixed")
	var stderr bytes.Buffer
	code := run(context.Background(), parse(t, "--fix", "--input", filepath.Join(data, "*.jsonl"), "--output", out,
		"--pack", pack, "--rule-timeout", "50ms"), &stderr)
	if code != exitError {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, exitError, stderr.String())
	}
	if !strings.HasPrefix(stderr.String(), "fixed 0 of 1 record (1 file, 1 line, 0 actions, 0 dropped)\n") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != rec {
		t.Errorf("output %q, want the record as it was", got)
	}
	notes, err := os.ReadFile(out + ".notes.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(notes), `"rule":"policy-error"`) {
		t.Errorf("notes:\n%s", notes)
	}
}

// A file with a line over --max-line-size is not written at all (its
// other records neither) and the job exits 2, as chatlint fix does; it
// used to write the file without that line and exit 1.
func TestRunFixLongLineExits2(t *testing.T) {
	data := t.TempDir()
	const good = `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}` + "\n"
	long := `{"messages":[{"role":"user","content":"` + strings.Repeat("x", 300) + `"}]}` + "\n"
	if err := os.WriteFile(filepath.Join(data, "d.jsonl"), []byte(good+long+good), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "fixed")
	var stderr bytes.Buffer
	code := run(context.Background(), parse(t, "--fix", "--input", filepath.Join(data, "*.jsonl"), "--output", out, "--max-line-size", "200"), &stderr)
	if code != exitError {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, exitError, stderr.String())
	}
	for _, want := range []string{
		"fixed 0 of 0 records (1 file, 3 lines, 0 actions, 0 dropped)\n",
		"chatlint-beam: 1 line over --max-line-size: nothing is written for the files that hold them (the notes name them); raise --max-line-size to fix them\n",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr:\n%s\nwant it to hold:\n%s", stderr.String(), want)
		}
	}
	if got, err := os.ReadFile(out); err != nil || len(got) != 0 {
		t.Errorf("output %q (%v), want nothing of the file", got, err)
	}
	notes, err := os.ReadFile(out + ".notes.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(notes), `"rule":"line-too-long","severity":"error"`) || !strings.Contains(string(notes), "(nothing is written for this file)") {
		t.Errorf("notes:\n%s", notes)
	}
}

// TestConfigKeys: every key of a .chatlint.yaml applies to the job where
// its flag was not given, as in check, and the keys a distributed job
// cannot honour are refused.
func TestConfigKeys(t *testing.T) {
	write := func(src string) string {
		path := filepath.Join(t.TempDir(), ".chatlint.yaml")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	out := filepath.Join(t.TempDir(), "findings")
	in := "../../../fixtures/sample/*.jsonl"
	cfg := write("packs: [builtin:integrity]\nrule_timeout: 3s\nfail_on: warning\nformat: chat\ntool_calls: structured\nallow_no_tools: true\nmax_line_size: 1MiB\n")
	job, failOn, err := parse(t, "--input", in, "--output", out, "--config", cfg).job(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var packs []string
	for _, p := range job.Config.Packs {
		packs = append(packs, p.Name)
	}
	got := []any{packs, job.Config.RecordTimeout, failOn, job.Config.Format, job.Config.ToolCalls, slices.Contains(job.Config.Disable, "tools-shape"), job.Config.MaxLineSize}
	want := []any{[]string{"integrity"}, 3 * time.Second, finding.Warning, "chat", "structured", true, 1 << 20}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("from the config (-want +got):\n%s", d)
	}
	// A flag given wins over the file.
	job, failOn, err = parse(t, "--input", in, "--output", out, "--config", cfg, "--rule-timeout", "1s", "--fail-on", "error", "--format", "proxy-log", "--max-line-size", "100").job(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got = []any{job.Config.RecordTimeout, failOn, job.Config.Format, job.Config.MaxLineSize}
	if d := cmp.Diff([]any{time.Second, finding.Error, "proxy-log", 100}, got); d != "" {
		t.Errorf("flags over the config (-want +got):\n%s", d)
	}
	for _, c := range []struct{ src, want string }{
		{"profile: exprot\n", `--profile: unknown profile "exprot"`},
		{"format: csv\n", `format: "csv" is not one of`},
		{"fail_on: fatal\n", `fail_on: "fatal" is not one of`},
		{"max_line_size: lots\n", "max_line_size: want a positive size"},
		{"output: [json=report.json]\n", "output: chatlint-beam writes its findings to --output only"},
		{"baseline: base.json\n", "baseline: a distributed job cannot share a baseline"},
		{"packs: [no/such/pack]\n", "--pack: "},
	} {
		_, _, err := parse(t, "--input", in, "--output", out, "--config", write(c.src)).job(context.Background())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
}
