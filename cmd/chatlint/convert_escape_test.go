package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConvertEscapesNames: a log file whose name holds ESC, BEL, CR and a
// newline reaches stdout and integrity-report.txt escaped: it can neither
// drive the terminal nor forge a report line.
func TestConvertEscapesNames(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(repo, "fixtures/convert/basic/logs/2026-01-13/weather-paris-01.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	logs := filepath.Join(t.TempDir(), "logs")
	day := filepath.Join(logs, "2026-01-13")
	os.MkdirAll(day, 0o755)
	name := "evil\x1b[2J\a\rWARNING\tsession=forged\ninput=x-01.jsonl"
	if err := os.WriteFile(filepath.Join(day, name), src, 0o644); err != nil {
		t.Skip("the file system refuses the name:", err)
	}
	out := t.TempDir()
	stdout, stderr, _ := chatlint(t, "", "convert", "--logs", logs, "--output", out)
	report, err := os.ReadFile(filepath.Join(out, "integrity-report.txt"))
	if err != nil {
		t.Fatalf("no integrity report: %v (stderr %s)", err, stderr)
	}
	for what, text := range map[string]string{"stdout": stdout, "stderr": stderr, "integrity-report.txt": string(report)} {
		if strings.ContainsAny(text, "\x1b\a\r") {
			t.Errorf("%s holds a raw control character: %q", what, text)
		}
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "input=") {
				t.Errorf("%s has a forged line: %q", what, l)
			}
		}
	}
	if !strings.Contains(string(report), `evil\x1b[2J\x07\rWARNING\tsession=forged\ninput=x-01.jsonl`) {
		t.Errorf("integrity-report.txt does not name the file escaped:\n%s", report)
	}
}
