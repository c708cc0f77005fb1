package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCheckSeveralOutputs writes SARIF and JUnit files and JSONL on stdout
// in one run.
func TestCheckSeveralOutputs(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.jsonl", emptyTurn+"\n"+cleanRecord+"\n")
	sarifFile, junitFile := filepath.Join(dir, "out.sarif"), filepath.Join(dir, "out.xml")
	out, errOut, code := chatlint(t, "", "check", "--no-builtin", "--pack", filepath.Join(repo, "fixtures/packs/team"),
		"--fail-on", "warning", "-o", "sarif="+sarifFile, "-o", "junit="+junitFile, "-o", "jsonl", data)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, errOut)
	}
	var f struct{ Rule, File string }
	if err := json.Unmarshal([]byte(out), &f); err != nil || f.Rule != "no-empty-assistant" || strings.Count(out, "\n") != 1 {
		t.Errorf("stdout is not one JSONL finding (%v):\n%s", err, out)
	}
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct{ Rules []struct{ ID string } }
			}
			Results []struct{ RuleID string }
		}
	}
	readJSON(t, sarifFile, &log)
	if log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) != 1 || log.Runs[0].Results[0].RuleID != "no-empty-assistant" {
		t.Errorf("sarif: %+v", log)
	}
	if n := len(log.Runs[0].Tool.Driver.Rules); n < 2 {
		t.Errorf("sarif lists %d rules; want the pack's two and the reader's", n)
	}
	raw, err := os.ReadFile(junitFile)
	if err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
	}
	if err := xml.Unmarshal(raw, &suites); err != nil {
		t.Fatal(err)
	}
	if suites.Failures != 1 || suites.Tests < 2 {
		t.Errorf("junit: %d tests, %d failures; want one failure\n%s", suites.Tests, suites.Failures, raw)
	}
	if fi, _ := os.Stat(sarifFile); fi.Mode().Perm() != 0o644 {
		t.Errorf("report mode %v, want 0644", fi.Mode().Perm())
	}
}

func TestCheckOutputErrors(t *testing.T) {
	f := writeFile(t, t.TempDir(), "d.jsonl", cleanRecord+"\n")
	tests := []struct {
		name, wantErr string
		args          []string
	}{
		{"two on stdout", "both json and text would write to stdout", []string{"-o", "json", "-o", "text"}},
		{"unknown format", `unknown output format "xml"`, []string{"-o", "xml=r.xml"}},
		{"missing folder", "does not exist", []string{"-o", "sarif=/no/such/dir/r.sarif"}},
		{"same file twice", "named by two outputs", []string{"-o", "json=r", "-o", "sarif=r"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := chatlint(t, "", append(append([]string{"check"}, tt.args...), f)...)
			if code != 2 || !strings.Contains(errOut, tt.wantErr) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, tt.wantErr)
			}
		})
	}
}

// TestCheckOutputNotLeftOnError checks that a run that fails to compile its
// policies leaves no report file behind.
func TestCheckOutputNotLeftOnError(t *testing.T) {
	dir := t.TempDir()
	bad := t.TempDir()
	writeFile(t, bad, "bad.rego", "package chatlint.bad\n\ndeny contains f if {\n")
	f := writeFile(t, dir, "d.jsonl", cleanRecord+"\n")
	report := filepath.Join(dir, "r.sarif")
	if _, _, code := chatlint(t, "", "check", "--pack", bad, "-o", "sarif="+report, f); code != 2 {
		t.Fatalf("exit %d", code)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "d.jsonl" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestSARIFFingerprintsIgnoreLines checks that a finding keeps its SARIF
// fingerprint when lines are inserted above its record, also for a record
// without an id, and that two records' findings do not share one.
func TestSARIFFingerprintsIgnoreLines(t *testing.T) {
	dir := t.TempDir()
	other := strings.Replace(emptyTurn, `"hi"`, `"other"`, 1)
	fingerprints := func(data string) []string {
		out := filepath.Join(dir, "out.sarif")
		chatlint(t, "", "check", "--no-builtin", "--pack", filepath.Join(repo, "fixtures/packs/team"),
			"-o", "sarif="+out, writeFile(t, dir, "d.jsonl", data))
		var log struct {
			Runs []struct {
				Results []struct {
					PartialFingerprints map[string]string `json:"partialFingerprints"`
				} `json:"results"`
			} `json:"runs"`
		}
		readJSON(t, out, &log)
		var fps []string
		for _, r := range log.Runs[0].Results {
			fps = append(fps, r.PartialFingerprints["chatlintKey/v1"])
		}
		return fps
	}
	before := fingerprints(emptyTurn + "\n" + other + "\n")
	after := fingerprints(cleanRecord + "\n" + cleanRecord + "\n" + emptyTurn + "\n" + other + "\n")
	if len(before) != 2 || before[0] == before[1] {
		t.Fatalf("want two different fingerprints, got %q", before)
	}
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("fingerprints moved with the lines (-before +after):\n%s", diff)
	}
}
