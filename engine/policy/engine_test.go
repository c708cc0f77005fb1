package policy

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/rule"
)

// chatDoc normalizes one chat record given as JSON.
func chatDoc(t *testing.T, record string) *document.Document {
	t.Helper()
	v, err := astjson.Decode([]byte(record))
	if err != nil {
		t.Fatalf("decode %s: %v", record, err)
	}
	return document.NewBuilder(document.Chat, "data.jsonl", document.Options{}).Add(7, v.(ast.Object))
}

// packOf builds an in-memory pack from file name -> source.
func packOf(t *testing.T, files map[string]string) *Pack {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	p, err := LoadFS(fsys, ".", "team")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustCompile(t *testing.T, opts Options, packs ...*Pack) *Engine {
	t.Helper()
	e, err := Compile(context.Background(), packs, opts)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return e
}

const emptyAssistantRego = `package chatlint.team

# METADATA
# title: no-empty-assistant
# description: An assistant message has neither text nor tool calls.
# custom:
#   id: no-empty-assistant
#   severity: warning
warn contains f if {
	some m in input.messages
	m.role == "assistant"
	m.text == ""
	count(m.tool_calls) == 0
	f := {"rule": "no-empty-assistant", "msg": sprintf("assistant message %d is empty", [m.index]), "message_index": m.index}
}
`

const legacyYAML = `rules:
  - id: legacy-function-call
    severity: error
    description: An assistant message uses the legacy function_call field.
    given: messages[*]
    where:
      role: assistant
      raw.function_call.name: {type: string, not_empty: true}
    assert:
      raw.function_call: absent
    message: 'message {{index}} uses legacy function_call "{{raw.function_call.name}}"'
`

func TestEvaluateRegoAndYAML(t *testing.T) {
	e := mustCompile(t, Options{}, packOf(t, map[string]string{
		"pack.yaml":       "name: team\ndescription: House rules.\n",
		"empty.rego":      emptyAssistantRego,
		"empty_test.rego": "package chatlint.team_test\n\nthis is not even rego\n",
		"legacy.yaml":     legacyYAML,
	}))
	doc := chatDoc(t, `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":""},{"role":"assistant","function_call":{"name":"f","arguments":"{}"}}]}`)
	hits, err := e.Evaluate(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []Hit{
		{Rule: "legacy-function-call", Pack: "team", Severity: finding.Error, Message: `message 2 uses legacy function_call "f"`,
			Target: "/messages/2", Path: "/messages/2/function_call"},
		{Rule: "no-empty-assistant", Pack: "team", Severity: finding.Warning, Message: "assistant message 1 is empty",
			Target: "/messages/1"},
		{Rule: "no-empty-assistant", Pack: "team", Severity: finding.Warning, Message: "assistant message 2 is empty",
			Target: "/messages/2"},
	}
	sortHits(hits)
	if diff := cmp.Diff(want, hits); diff != "" {
		t.Errorf("hits (-want +got):\n%s", diff)
	}
}

func TestRuleMetadata(t *testing.T) {
	e := mustCompile(t, Options{}, packOf(t, map[string]string{
		"pack.yaml":   "name: team\n",
		"empty.rego":  emptyAssistantRego,
		"legacy.yaml": legacyYAML,
	}))
	want := []rule.Rule{
		{ID: "legacy-function-call", Severity: finding.Error, Pack: "team", Kind: "yaml",
			Description: "An assistant message uses the legacy function_call field.", Source: "team/legacy.yaml:2"},
		{ID: "no-empty-assistant", Title: "no-empty-assistant", Severity: finding.Warning, Pack: "team", Kind: "rego",
			Description: "An assistant message has neither text nor tool calls.", Source: "team/empty.rego:3"},
	}
	if diff := cmp.Diff(want, e.Rules()); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			name:  "rego parse error",
			files: map[string]string{"bad.rego": "package chatlint.team\n\ndeny contains f if {\n\tf := \n}\n"},
			want:  []string{"team/bad.rego:5:1: rego_parse_error: unexpected } token"},
		},
		{
			name:  "rego unknown function",
			files: map[string]string{"bad.rego": "package chatlint.team\n\ndeny contains f if {\n\tf := nope(1)\n}\n"},
			want:  []string{"team/bad.rego:4:7: rego_type_error: undefined function nope"},
		},
		{
			name:  "network builtins are removed",
			files: map[string]string{"net.rego": "package chatlint.team\n\ndeny contains f if {\n\tf := http.send({\"method\": \"get\", \"url\": \"http://x\"})\n}\n"},
			want:  []string{"team/net.rego:4:7: rego_type_error: undefined function http.send"},
		},
		{
			name:  "package outside chatlint",
			files: map[string]string{"p.rego": "package team\n\ndeny contains 1 if true\n"},
			want:  []string{"team/p.rego:1:1: package must be chatlint.<pack>…, not team"},
		},
		{
			name:  "metadata without id",
			files: map[string]string{"m.rego": "package chatlint.team\n\n# METADATA\n# description: x\ndeny contains 1 if true\n"},
			want:  []string{"team/m.rego:3:1: METADATA on deny needs custom.id"},
		},
		{
			name:  "yaml unknown operator",
			files: map[string]string{"r.yaml": "rules:\n  - id: x\n    severity: error\n    description: d\n    assert:\n      raw.a: {bigger: 3}\n"},
			want:  []string{"team/r.yaml:2:5: rule x: assert: line 6: raw.a: bigger: unknown operator (want present, optional, type, equals, not_equals, in, subset_of, not_empty, truthy, prefix, suffix, contains, matches, json, json_schema, datetime, less_than, at_most, greater_than, at_least, same_as or not)"},
		},
		{
			name:  "yaml bad severity",
			files: map[string]string{"r.yaml": "rules:\n  - id: x\n    severity: fatal\n    description: d\n    assert: {raw: present}\n"},
			want:  []string{`team/r.yaml:2:5: rule x: unknown severity "fatal" (want error, warning or info)`},
		},
		{
			name: "duplicate rule id",
			files: map[string]string{
				"a.yaml": "rules:\n  - id: x\n    severity: error\n    description: d\n    assert: {raw: present}\n",
				"b.yaml": "rules:\n  - id: x\n    severity: error\n    description: d\n    assert: {raw: present}\n",
			},
			want: []string{"team/b.yaml:2: rule id x is already declared at team/a.yaml:2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile(context.Background(), []*Pack{packOf(t, tt.files)}, Options{})
			var ce *CompileError
			if !errors.As(err, &ce) {
				t.Fatalf("want a *CompileError, got %v", err)
			}
			if diff := cmp.Diff(tt.want, ce.Errors); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPackFromDisk(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pack.yaml", "name: house\ndescription: Our rules.\n")
	write("empty.rego", emptyAssistantRego)
	write("empty_test.rego", "package chatlint.team_test\n")
	p, err := LoadFS(os.DirFS(dir), ".", dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "house" || p.Description != "Our rules." || len(p.Rego) != 1 || len(p.Tests) != 1 {
		t.Fatalf("pack = %+v", p)
	}
	doc := chatDoc(t, `{"messages":[{"role":"assistant","content":""}]}`)
	count := func() int {
		e, err := Compile(context.Background(), []*Pack{mustLoad(t, dir)}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		hits, err := e.Evaluate(context.Background(), doc)
		if err != nil {
			t.Fatal(err)
		}
		return len(hits)
	}
	if got := count(); got != 1 {
		t.Fatalf("before edit: %d hits, want 1", got)
	}
	// Editing the policy changes the next load: no rebuild involved.
	write("empty.rego", "package chatlint.team\n")
	if got := count(); got != 0 {
		t.Fatalf("after edit: %d hits, want 0", got)
	}
}

func mustLoad(t *testing.T, dir string) *Pack {
	t.Helper()
	p, err := LoadFS(os.DirFS(dir), ".", dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDisable(t *testing.T) {
	e := mustCompile(t, Options{Disable: []string{"no-empty-assistant", "legacy-function-call"}}, packOf(t, map[string]string{
		"empty.rego":  emptyAssistantRego,
		"legacy.yaml": legacyYAML,
	}))
	doc := chatDoc(t, `{"messages":[{"role":"assistant","function_call":{"name":"f"}}]}`)
	hits, err := e.Evaluate(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 0 || len(e.Rules()) != 0 {
		t.Errorf("disabled rules still active: hits %v, rules %v", hits, e.Rules())
	}
}

func sortHits(h []Hit) {
	for i := 1; i < len(h); i++ {
		for j := i; j > 0 && (h[j].Rule < h[j-1].Rule || h[j].Rule == h[j-1].Rule && h[j].Target < h[j-1].Target); j-- {
			h[j], h[j-1] = h[j-1], h[j]
		}
	}
}

// TestRecordTimeout checks that a pathological rule cannot hang a run: the
// document is reported as not checked, and the next one is evaluated again.
func TestRecordTimeout(t *testing.T) {
	slow := `package chatlint.team

# METADATA
# description: Counts to a very large number.
# custom:
#   id: slow
deny contains {"rule": "slow", "msg": "slow"} if {
	input.messages[0].text == "slow"
	count([x | some x in numbers.range(1, 100000000)]) > 0
}

# METADATA
# description: Always fires.
# custom:
#   id: quick
deny contains {"rule": "quick", "msg": "quick"} if true
`
	e := mustCompile(t, Options{RecordTimeout: 50 * time.Millisecond}, packOf(t, map[string]string{"slow.rego": slow}))
	ev := e.NewEvaluator()
	start := time.Now()
	_, err := ev.Evaluate(context.Background(), chatDoc(t, `{"messages":[{"role":"user","content":"slow"}]}`))
	if err == nil || !strings.Contains(err.Error(), "took longer than 50ms") {
		t.Fatalf("err = %v, want the time limit", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("evaluation was not stopped: took %s", d)
	}
	hits, err := ev.Evaluate(context.Background(), chatDoc(t, `{"messages":[{"role":"user","content":"fast"}]}`))
	if err != nil || len(hits) != 1 || hits[0].Rule != "quick" {
		t.Fatalf("after a timeout: hits %v, err %v; want one quick hit", hits, err)
	}
	// The limit is per WorkUnit messages (or entries): a document of 2,500
	// messages is given three.
	long := `{"messages":[{"role":"user","content":"slow"}` + strings.Repeat(`,{"role":"assistant","content":"ok"}`, 2499) + `]}`
	if _, err := ev.Evaluate(context.Background(), chatDoc(t, long)); err == nil || !strings.Contains(err.Error(), "took longer than 150ms (50ms per 1000 messages, entries, tool calls or content parts)") {
		t.Fatalf("err = %v, want the time limit of three units of work", err)
	}
}
