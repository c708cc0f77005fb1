package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
)

// convertAllowed lists the errors check --profile openai may report on a
// converted file of ../shared/data, by file (relative to it) and rule, with
// why the example cannot pass faithfully. Any other error fails the test, and
// so does an entry that no longer happens (the list stays true). Each allowed
// error must also be one convert noted: see noteFor.
var convertAllowed = map[string]map[string]string{
	// Under --profile openai the source defects these files carry are
	// warnings now (a provider profile fails only what OpenAI refuses):
	// the glaive file's schema-breaking arguments, the pi sessions' flagged
	// results and their over-long examples, which OpenAI truncates.
}

// TestConvertToSharedData converts every file of ../shared/data with --to
// openai and checks what it wrote under --profile openai: no error, except
// those convertAllowed lists, and each of those noted by convert (a
// tool-result-flagged result by its call id, an example-too-long example).
func TestConvertToSharedData(t *testing.T) {
	root := filepath.Join(repo, "../shared/data")
	if _, err := os.Stat(root); err != nil {
		t.Skip("../shared/data is absent")
	}
	var files []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".json")) {
			files = append(files, p)
		}
		return nil
	})
	dir := t.TempDir()
	converted := 0
	seen := map[string]map[string]bool{}
	for i, f := range files {
		rel, _ := filepath.Rel(root, f)
		rel = filepath.ToSlash(rel)
		out := filepath.Join(dir, fmt.Sprintf("%d.jsonl", i))
		args := []string{f}
		// A Batch output is converted with its input (alone it is
		// refused): the examples are the requests joined with their answers.
		if in := strings.Replace(f, "batch-output", "batch-input", 1); in != f {
			if _, err := os.Stat(in); err == nil {
				args = []string{in, f}
			}
		}
		var stderr bytes.Buffer
		code := run(context.Background(), append([]string{"convert", "--to", "openai", "-o", out}, args...), cmdutil.IOStreams{Out: &bytes.Buffer{}, ErrOut: &stderr})
		if code == 2 {
			t.Errorf("%s: exit 2:\n%s", rel, stderr.String())
			continue
		}
		data, _ := os.ReadFile(out)
		if len(data) == 0 {
			continue // nothing this build recognizes or can train on; its notes say why
		}
		converted++
		for _, e := range openaiErrors(t, out) {
			why, ok := convertAllowed[rel][e.Rule]
			switch {
			case !ok:
				t.Errorf("%s: the converted file has an error: %s: %s", rel, e.Rule, e.Message)
				continue
			case !noteFor(stderr.String(), e):
				t.Errorf("%s: %s (allowed: %s) but convert did not note it: %s", rel, e.Rule, why, e.Message)
			}
			if seen[rel] == nil {
				seen[rel] = map[string]bool{}
			}
			seen[rel][e.Rule] = true
		}
	}
	for rel, rules := range convertAllowed {
		for rule := range rules {
			if _, err := os.Stat(filepath.Join(root, rel)); err == nil && !seen[rel][rule] {
				t.Errorf("%s: %s is allowed but no longer reported: take it off convertAllowed", rel, rule)
			}
		}
	}
	if converted < 4 {
		t.Errorf("only %d files of ../shared/data converted", converted)
	}
}

type checkError struct{ Rule, Message string }

// openaiErrors runs check --profile openai on a file and returns its errors.
func openaiErrors(t *testing.T, file string) []checkError {
	t.Helper()
	var stdout bytes.Buffer
	run(context.Background(), []string{"check", "--profile", "openai", "-o", "json", file}, cmdutil.IOStreams{Out: &stdout, ErrOut: &bytes.Buffer{}})
	var r struct {
		Findings []struct{ Rule, Severity, Message string } `json:"findings"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	var out []checkError
	for _, f := range r.Findings {
		// The file's size is the dataset's business, not the conversion's:
		// one converted session is one example, under OpenAI's minimum.
		if f.Severity == "error" && f.Rule != "dataset-too-few-examples" {
			out = append(out, checkError{f.Rule, f.Message})
		}
	}
	return out
}

var flaggedCall = regexp.MustCompile(`for call "([^"]+)"`)

// noteFor reports whether convert's notes announce an error check found on
// its output: a flagged tool result by its call id, an example over the
// token limit by the rule's name.
func noteFor(notes string, e checkError) bool {
	lossy := slices.DeleteFunc(strings.Split(notes, "\n"), func(l string) bool { return !strings.Contains(l, " convert-lossy: ") })
	want := ""
	switch e.Rule {
	case "tool-result-flagged":
		m := flaggedCall.FindStringSubmatch(e.Message)
		if m == nil {
			return false
		}
		want = fmt.Sprintf("(tool_call_id %q)", m[1])
	case "example-too-long":
		want = "example-too-long"
	default:
		return true // a defect of the source, carried as it was
	}
	return slices.ContainsFunc(lossy, func(l string) bool { return strings.Contains(l, want) })
}
