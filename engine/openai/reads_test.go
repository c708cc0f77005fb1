package openai

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/internal/claudecodegen"
)

// A Claude Code session read as convert reads it (ReadOptions: its lines
// decoded as views, without the members only an entry's raw holds) gives
// the examples and notes of the session read whole, and Convert builds
// none of its views: building them (Document.Materialized) kept an OPA
// object beside every line and message of a long session, and convert on
// a session of 100,000 entries peaked near 1 GB.
func TestConvertSessionReadAsViews(t *testing.T) {
	sessions := map[string][][]byte{"generated 500 entries": claudecodegen.Session(500)}
	files, _ := filepath.Glob("../../fixtures/fix/claude-code-*/input.jsonl")
	shared, _ := filepath.Glob("../../../shared/data/agent-sessions/claude-code/*.jsonl")
	for _, name := range append(files, shared...) {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		sessions[name] = bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	}
	for name, lines := range sessions {
		for _, opts := range []Options{{}, {KeepReasoning: true}, {SplitTurns: true}, {Model: tiny}} {
			whole := sessionDocument(t, lines, document.Options{})
			viewed := sessionDocument(t, lines, ReadOptions(document.ClaudeCode, document.Options{}))
			views := messageViews(viewed)
			if len(views) == 0 {
				t.Fatalf("%s: no message of the session read as views", name)
			}
			wantEx, wantNotes := Convert(whole, opts)
			gotEx, gotNotes := Convert(viewed, opts)
			if diff := cmp.Diff(wantEx, gotEx); diff != "" {
				t.Errorf("%s %+v: examples (-whole +views):\n%s", name, opts, diff)
			}
			if diff := cmp.Diff(wantNotes, gotNotes); diff != "" {
				t.Errorf("%s %+v: notes (-whole +views):\n%s", name, opts, diff)
			}
			for i, v := range views {
				if v.Built() {
					t.Fatalf("%s: Convert built the view of message %d", name, i)
				}
			}
		}
	}
}

// sessionDocument reads a Claude Code session's lines as convert's
// workers do (lint.Documents).
func sessionDocument(t *testing.T, lines [][]byte, opts document.Options) *document.Document {
	t.Helper()
	recs := make([]jsonl.Record, len(lines))
	for i, l := range lines {
		recs[i] = jsonl.Record{Line: i + 1, Data: l, Raw: append(bytes.Clone(l), '\n'), End: "\n"}
	}
	var d *document.Document
	// A line that is not an object is a finding, and the session goes on.
	bad := lint.Documents(lint.Unit{File: "s.jsonl", Format: document.ClaudeCode, Records: recs}, opts, func(doc *document.Document, _ *jsonl.Record) {
		d = doc
	})
	if d == nil {
		t.Fatalf("the session gave no document: %v", bad)
	}
	return d
}

// messageViews are the raw messages of d that are views.
func messageViews(d *document.Document) []*astjson.ObjectView {
	var out []*astjson.ObjectView
	msgs, _ := d.Value.Get(ast.StringTerm("messages")).Value.(*ast.Array)
	for i := 0; msgs != nil && i < msgs.Len(); i++ {
		m, ok := msgs.Elem(i).Value.(*document.MessageValue)
		if !ok {
			continue
		}
		if raw := m.Member(document.MessageSlot("raw"), ast.StringTerm("raw")); raw != nil {
			if v, ok := raw.Value.(*astjson.ObjectView); ok {
				out = append(out, v)
			}
		}
	}
	return out
}
