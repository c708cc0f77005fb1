package policy

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/chatlint/chatlint/engine/policy/yamlrule"
	"github.com/google/go-cmp/cmp"
)

const cleanupRego = `package chatlint.team

# METADATA
# title: drop-empty-assistant
# description: Drops an empty assistant message.
# custom:
#   id: drop-empty-assistant
actions contains {"op": "drop_message", "rule": "drop-empty-assistant", "message_index": m.index, "reason": "empty"} if {
	some m in input.messages
	m.role == "assistant"
	not m.has_content
}

actions contains {"op": "rename_tool_call_id", "rule": "rename", "target": "/messages/1/tool_calls/0", "id": "x", "results": [2]} if {
	count(input.messages) > 5
}

deny contains {"rule": "drop-empty-assistant", "msg": "empty assistant", "message_index": 1} if false
`

const cleanupYAML = `rules:
  - id: drop-system
    severity: info
    description: Drops system messages.
    given: messages[*]
    assert: {role: {not_equals: system}}
    message: system message {{index}}
    action: {op: drop_message}
`

func TestActions(t *testing.T) {
	p := packOf(t, map[string]string{"c.rego": cleanupRego, "c.yaml": cleanupYAML, "pack.yaml": "name: team\nkind: cleanup\n"})
	if p.Kind != KindCleanup {
		t.Errorf("kind = %q", p.Kind)
	}
	e := mustCompile(t, Options{}, p)
	doc := chatDoc(t, `{"messages":[{"role":"system","content":"s"},{"role":"assistant","content":""},{"role":"user","content":"q"},{"role":"assistant","content":"a"},{"role":"user","content":"q"},{"role":"assistant","content":null}]}`)
	hits, acts, err := e.NewEvaluator().EvaluateActions(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range acts {
		args, _ := json.Marshal(a.Args)
		got = append(got, strings.Join([]string{a.Pack, a.Rule, a.Op, string(a.Target), a.Reason, string(args)}, " "))
	}
	want := []string{
		"team drop-system drop_message /messages/0 system message 0 null",
		"team drop-empty-assistant drop_message /messages/1 empty null",
		`team rename rename_tool_call_id /messages/1/tool_calls/0  {"id":"x","results":[2]}`,
		"team drop-empty-assistant drop_message /messages/5 empty null",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
	// A YAML rule with an action is a finding too (for check); Rego actions are not.
	if len(hits) != 1 || hits[0].Rule != "drop-system" {
		t.Errorf("hits = %+v", hits)
	}
	// Evaluate (check's call) gives the findings only.
	if h, err := e.NewEvaluator().Evaluate(context.Background(), doc); err != nil || len(h) != 1 {
		t.Errorf("Evaluate = %v, %v", h, err)
	}

	// Disabled rules ask for nothing.
	e = mustCompile(t, Options{Disable: []string{"drop-empty-assistant", "drop-system"}}, p)
	_, acts, _ = e.NewEvaluator().EvaluateActions(context.Background(), doc)
	if len(acts) != 1 || acts[0].Rule != "rename" {
		t.Errorf("with rules disabled: %+v", acts)
	}
}

func TestActionErrors(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"not an object", `package chatlint.bad
actions contains "drop" if true`, "an action must be an object"},
		{"no op", `package chatlint.bad
actions contains {"rule": "r"} if true`, "an action needs a rule id and an op"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := mustCompile(t, Options{}, packOf(t, map[string]string{"b.rego": c.src}))
			_, _, err := e.NewEvaluator().EvaluateActions(context.Background(), chatDoc(t, `{"messages":[]}`))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error = %v, want %q", err, c.want)
			}
		})
	}
	_, err := yamlrule.Compile(File{Name: "y.yaml", Source: []byte("rules:\n  - id: x\n    severity: info\n    description: d\n    assert: {role: present}\n    action: {reason: no op}\n")}, "p")
	if err == nil || !strings.Contains(err.Error(), "action needs an op") {
		t.Errorf("YAML action without op: %v", err)
	}
	if _, err := LoadFS(mapFS("pack.yaml", "kind: weird\n"), ".", "p"); err == nil || !strings.Contains(err.Error(), "kind must be cleanup") {
		t.Errorf("bad kind: %v", err)
	}
}

func mapFS(name, src string) fstest.MapFS {
	return fstest.MapFS{name: &fstest.MapFile{Data: []byte(src)}}
}

// TestPackYAMLUnknownKeys: a key pack.yaml does not have is an error at its
// line (a typo such as "kinds: cleanup" loaded the pack as a check pack).
func TestPackYAMLUnknownKeys(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"name: team\nkinds: cleanup\n", `p/pack.yaml:2: unknown key "kinds" in pack.yaml (valid keys: description, extends, kind, name, profiles)`},
		{"name: team\nprofiles:\n  - name: strict\n    description: Strict.\n    severity: error\n", `p/pack.yaml:5: unknown key "severity" in a profile`},
		{"name: team\nextends: [builtin:integrity]\nkind: cleanup\n", ""},
	} {
		_, err := LoadFS(mapFS("pack.yaml", tt.src), ".", "p")
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%q: %v", tt.src, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%q: error %v, want %q", tt.src, err, tt.want)
		}
	}
}
