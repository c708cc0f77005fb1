package stats

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/internal/testinputs"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/tokens"
	"github.com/chatlint/chatlint/internal/claudecodegen"
	"github.com/chatlint/chatlint/internal/codexgen"
)

// TestSessionFieldsSameStats: a session read under sessionFields (its
// lines and messages views, the members stats does not read left out)
// gives describe what the session built whole gave it, on every Claude
// Code and Codex file of the fixtures and the shared data and on
// generated sessions.
func TestSessionFieldsSameStats(t *testing.T) {
	counter, err := tokens.NewCounter("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[string][]byte{
		"claudecodegen": bytes.Join(claudecodegen.Session(3000), []byte("\n")),
		"codexgen":      bytes.Join(codexgen.Rollout(3000), []byte("\n")),
	}
	for _, path := range testinputs.Files(t, true) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		inputs[path] = data
	}
	compared := map[document.Format]int{}
	for name, data := range inputs {
		u, ok := sessionUnit(t, name, data)
		if !ok {
			continue
		}
		opts := document.Options{}
		pruned := docOptions(opts, u.Format)
		if pruned.Fields == nil {
			continue
		}
		whole, views := describeAll(counter, u, opts), describeAll(counter, u, pruned)
		if d := cmp.Diff(whole, views, cmp.AllowUnexported(example{})); d != "" {
			t.Errorf("%s: examples (-whole +sessionFields):\n%s", filepath.Base(name), d)
		}
		compared[u.Format]++
	}
	if compared[document.ClaudeCode] < 5 || compared[document.Codex] < 3 {
		t.Errorf("compared %v sessions: want at least 5 Claude Code and 3 Codex", compared)
	}
	for _, f := range []document.Format{document.Chat, document.ProxyLog, document.PiSession} {
		if docOptions(document.Options{}, f).Fields != nil {
			t.Errorf("%s: read with sessionFields, want whole", f)
		}
	}
}

// sessionUnit is the records of a session file as the runner hands them
// on, and its format as detection finds it; ok is false for a file of no
// session format.
func sessionUnit(t *testing.T, name string, data []byte) (lint.Unit, bool) {
	r := jsonl.NewReader(bytes.NewReader(data))
	u := lint.Unit{File: name}
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return u, false
		}
		if u.Format == "" && len(u.Records) < lint.DetectWindow {
			if f, _, _, ok := lint.Detect(name, rec); ok && f != "" {
				u.Format = f
			}
		}
		u.Records = append(u.Records, rec.Clone())
	}
	return u, u.Format.PerFile()
}

// describeAll is what stats keeps of every document of u read with opts.
func describeAll(c *tokens.Counter, u lint.Unit, opts document.Options) []example {
	var out []example
	lint.Documents(u, opts, func(d *document.Document, _ *jsonl.Record) {
		out = append(out, describe(c, d))
	})
	return out
}
