package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckSharedData runs check over every file of ../shared/data (real
// files written by other projects): no panic, no internal error, every file
// read, and the files in no supported format reported once each.
func TestCheckSharedData(t *testing.T) {
	dir := filepath.Join(repo, "../shared/data")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("../shared/data is absent")
	}
	out, errOut, code := chatlint(t, "", "check", "-o", "json", dir)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (findings); stderr: %s", code, errOut)
	}
	var res struct {
		Summary struct {
			Files int `json:"files"`
		} `json:"summary"`
		Findings []struct {
			Rule string `json:"rule"`
			File string `json:"file"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	var files int
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		// A folder walk reads JSON Lines, JSON documents and Parquet shards.
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".traj") || strings.HasSuffix(p, ".parquet")) {
			files++
		}
		return nil
	})
	if res.Summary.Files != files {
		t.Errorf("read %d files, want %d", res.Summary.Files, files)
	}
	unrecognized := map[string]int{}
	for _, f := range res.Findings {
		switch f.Rule {
		case "policy-error":
			t.Errorf("internal error on real data: %+v", f)
		case "unrecognized-format":
			unrecognized[filepath.Base(f.File)]++
		}
	}
	for name, n := range unrecognized {
		if n != 1 {
			t.Errorf("%s: %d unrecognized-format findings, want one", name, n)
		}
	}
	if len(unrecognized) == 0 {
		t.Error("no file was reported as unrecognized; ShareGPT and Claude Code files should be")
	}
}

// TestCheckHugeRecord checks a record on one 60 MB line end to end.
func TestCheckHugeRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("60 MB input")
	}
	body := strings.Repeat("lorem ipsum ", 5<<20) // 60 MB of text
	rec := `{"messages":[{"role":"user","content":"summarize"},{"role":"assistant","content":"` + body +
		`","function_call":{"name":"f","arguments":"{}"}}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{}}}}]}`
	f := writeFile(t, t.TempDir(), "huge.jsonl", `{"messages":[]}`+"\n"+rec+"\n")
	out, errOut, code := chatlint(t, "", "check", f)
	if code != 1 {
		t.Fatalf("exit %d; stderr %s", code, errOut)
	}
	if !strings.Contains(out, "huge.jsonl:2: error legacy-function-call") {
		t.Errorf("the rule did not run on the 60 MB record:\n%.2000s", out)
	}
}
