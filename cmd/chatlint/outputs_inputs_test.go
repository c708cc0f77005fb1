package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputNeverAnInput: every output a command writes is refused (exit 2,
// nothing written) when it is one of the run's inputs, named directly,
// through a link or by another spelling; an output folder that is, holds
// or lies inside the logs folder likewise. They used to replace the data
// with the report or output, with no backup.
func TestOutputNeverAnInput(t *testing.T) {
	type setup struct {
		dir, data, logs, log string
	}
	mk := func(t *testing.T) setup {
		dir := t.TempDir()
		s := setup{dir: dir, data: writeFile(t, dir, "data.jsonl", needsFix+"\n"), logs: filepath.Join(dir, "logs")}
		os.Mkdir(s.logs, 0o755)
		s.log = writeFile(t, s.logs, "s1.jsonl", `{"timestamp":"2026-01-01T00:00:00Z","session_id":"s","request":{}}`+"\n")
		return s
	}
	tests := []struct {
		name string
		args func(s setup) []string
	}{
		{"check -o json", func(s setup) []string { return []string{"check", "-o", "json=" + s.data, s.data} }},
		{"check -o sarif", func(s setup) []string { return []string{"check", "-o", "sarif=" + s.data, s.data} }},
		{"check -o html", func(s setup) []string { return []string{"check", "-o", "html=" + s.data, s.data} }},
		{"check -o junit", func(s setup) []string { return []string{"check", "-o", "junit=" + s.data, s.data} }},
		{"check -o jsonl in a folder input", func(s setup) []string { return []string{"check", "-o", "jsonl=" + s.data, s.dir} }},
		{"check -o another spelling", func(s setup) []string {
			return []string{"check", "-o", "json=" + filepath.Join(s.dir, "logs", "..", "data.jsonl"), s.data}
		}},
		{"check -o a symlink", func(s setup) []string {
			l := filepath.Join(s.dir, "link.json")
			os.Symlink(s.data, l)
			return []string{"check", "-o", "json=" + l, s.data}
		}},
		{"check -o a hard link", func(s setup) []string {
			l := filepath.Join(s.dir, "hard.json")
			os.Link(s.data, l)
			return []string{"check", "-o", "json=" + l, s.data}
		}},
		{"check --write-baseline", func(s setup) []string { return []string{"check", "--write-baseline", s.data, s.data} }},
		{"stats -o html", func(s setup) []string { return []string{"stats", "-o", "html=" + s.data, s.data} }},
		{"convert --to openai -o", func(s setup) []string { return []string{"convert", "--to", "openai", "-o", s.data, s.data} }},
		{"fix -o", func(s setup) []string { return []string{"fix", "-o", s.data, s.data} }},
		{"fix -o a folder mapping onto the input", func(s setup) []string { return []string{"fix", "-o", "/", s.data} }},
		{"convert -o the logs", func(s setup) []string { return []string{"convert", "-l", s.logs, "-o", s.logs} }},
		{"convert -o inside the logs", func(s setup) []string {
			return []string{"convert", "-l", s.logs, "-o", filepath.Join(s.logs, "out")}
		}},
		{"convert -o holding the logs", func(s setup) []string { return []string{"convert", "-l", s.logs, "-o", s.dir} }},
		{"convert --tool-report-path a log", func(s setup) []string {
			return []string{"convert", "-l", s.logs, "-o", filepath.Join(s.dir, "out"), "--tool-report-path", s.log}
		}},
		{"validate-input --write-messages-only", func(s setup) []string {
			return []string{"validate-input", "--input", s.data, "--write-messages-only", s.data}
		}},
		{"validate-input --report-json", func(s setup) []string {
			return []string{"validate-input", "--input", s.data, "--report-json", s.data}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mk(t)
			before, logBefore := mustRead(t, s.data), mustRead(t, s.log)
			_, stderr, code := chatlint(t, "", tt.args(s)...)
			if code != 2 || !strings.Contains(stderr, "refusing to write it") {
				t.Errorf("exit %d, stderr %q; want 2 and the output refused", code, stderr)
			}
			if got := mustRead(t, s.data); got != before {
				t.Errorf("input replaced (%d bytes)", len(got))
			}
			if got := mustRead(t, s.log); got != logBefore {
				t.Errorf("log replaced (%d bytes)", len(got))
			}
			for _, p := range []string{s.data + ".rejects.jsonl", filepath.Join(s.dir, "out"), filepath.Join(s.logs, "out")} {
				if _, err := os.Stat(p); err == nil {
					t.Errorf("%s was written", p)
				}
			}
		})
	}
}

// TestOutputBesideInputAllowed: an output that is no input is written, in
// the inputs' folder too (the check is not by folder for file outputs).
func TestOutputBesideInputAllowed(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "data.jsonl", cleanRecord+"\n")
	rep := filepath.Join(dir, "report.json")
	if _, stderr, code := chatlint(t, "", "check", "-o", "json="+rep, data); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The report exists now; checking only data.jsonl again may replace it.
	if _, stderr, code := chatlint(t, "", "check", "-o", "json="+rep, data); code != 0 {
		t.Fatalf("second run: exit %d: %s", code, stderr)
	}
}

// TestFixOutputsCollide: -o DIR/ maps ../x.jsonl and __/x.jsonl to one
// output; the second silently replaced the first. Fix refuses before
// writing anything.
func TestFixOutputsCollide(t *testing.T) {
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	os.MkdirAll(filepath.Join(work, "__"), 0o755)
	a := writeFile(t, dir, "x.jsonl", needsFix+"\n")
	b := writeFile(t, filepath.Join(work, "__"), "x.jsonl", cleanRecord+"\n")
	out := filepath.Join(dir, "out") + "/"
	rel := func(p string) string {
		r, err := filepath.Rel(work, p)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// Relative paths as fix maps them: from work/, ../x.jsonl and __/x.jsonl.
	t.Chdir(work)
	_, stderr, code := chatlint(t, "", "fix", "-o", out, rel(a), rel(b))
	if code != 2 || !strings.Contains(stderr, "would both be written to") {
		t.Errorf("exit %d, stderr %q; want 2 and the collision named", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was written", out)
	}
	// An absolute and a relative path naming different files.
	os.MkdirAll(filepath.Join(work, strings.TrimPrefix(dir, "/")), 0o755)
	c := writeFile(t, filepath.Join(work, strings.TrimPrefix(dir, "/")), "x.jsonl", cleanRecord+"\n")
	_, stderr, code = chatlint(t, "", "fix", "-o", out, a, rel(c))
	if code != 2 || !strings.Contains(stderr, "would both be written to") {
		t.Errorf("absolute and relative: exit %d, stderr %q", code, stderr)
	}
}
