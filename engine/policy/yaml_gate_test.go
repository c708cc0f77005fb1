package policy

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// alwaysRego reports every document, so a test sees whether OPA ran.
const alwaysRego = `package chatlint.PKG

# METADATA
# title: RULE
# description: fires on every document
# custom:
#   id: RULE
#   severity: info
info contains {"rule": "RULE", "msg": "ran"}
`

func alwaysPack(t *testing.T, name string, gate string) *Pack {
	files := map[string]string{name + ".rego": strings.NewReplacer("PKG", strings.ReplaceAll(name, "-", "_"), "RULE", name).Replace(alwaysRego)}
	if gate != "" {
		files["gate.yaml"] = gate
	}
	p := packOf(t, files)
	p.Name = name
	return p
}

// formatPack is alwaysPack, without a gate, its rule declared for one format.
func formatPack(t *testing.T, name, format string) *Pack {
	src := strings.NewReplacer("PKG", strings.ReplaceAll(name, "-", "_"), "RULE", name).Replace(alwaysRego)
	src = strings.Replace(src, "#   severity: info", "#   severity: info\n#   formats: ["+format+"]", 1)
	p := packOf(t, map[string]string{name + ".rego": src})
	p.Name = name
	return p
}

// A tool message, or a message with the role of the one before it.
const toolGate = `rego_when:
  - given: messages[*]
    assert: {role: {not: {equals: tool}}}
  - given: messages[*]
    assert: {$previous.role: {not: {same_as: role}}}
`

// The Rego of a gated pack runs only on documents some rego_when entry
// fires on; a pack without a gate beside it makes every pack's Rego run.
func TestRegoWhenGatesRego(t *testing.T) {
	plain := `{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":"a"}]}`
	tool := `{"messages":[{"role":"user","content":"q"},{"role":"assistant","tool_calls":[{"id":"c","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c","content":"1"}]}`
	twice := `{"messages":[{"role":"user","content":"q"},{"role":"user","content":"q"}]}`
	tests := []struct {
		name  string
		packs func() []*Pack
		want  map[string][]string // record -> rules that ran
	}{
		{"gated", func() []*Pack { return []*Pack{alwaysPack(t, "a", toolGate)} },
			map[string][]string{plain: nil, tool: {"a"}, twice: {"a"}}},
		{"two gated packs", func() []*Pack { return []*Pack{alwaysPack(t, "a", toolGate), alwaysPack(t, "b", toolGate)} },
			map[string][]string{plain: nil, tool: {"a", "b"}}},
		{"one pack not gated", func() []*Pack { return []*Pack{alwaysPack(t, "a", toolGate), alwaysPack(t, "b", "")} },
			map[string][]string{plain: {"a", "b"}, tool: {"a", "b"}}},
		// The finetune pack's case: the claude-code pack's Rego (not gated)
		// applies to its own format only, and keeps OPA running on no chat
		// record.
		{"a pack not gated for another format", func() []*Pack {
			return []*Pack{alwaysPack(t, "a", toolGate), formatPack(t, "b", "claude-code")}
		}, map[string][]string{plain: nil, tool: {"a"}, twice: {"a"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := mustCompile(t, Options{}, tc.packs()...)
			if got := len(e.Rules()); got != len(tc.packs()) {
				t.Errorf("%d rules listed, want only the Rego rules", got)
			}
			for rec, want := range tc.want {
				hits, err := e.Evaluate(context.Background(), chatDoc(t, rec))
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, h := range hits {
					got = append(got, h.Rule)
				}
				sortStrings(got)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s: rules that ran (-want +got):\n%s", rec, diff)
				}
			}
		})
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func TestRegoWhenCompileErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"an entry with an id", map[string]string{"r.rego": strings.NewReplacer("PKG", "a", "RULE", "a").Replace(alwaysRego),
			"g.yaml": "rego_when:\n  - id: x\n    given: messages[*]\n    assert: {role: user}\n"}, "an entry has no id"},
		{"an entry with nothing to assert", map[string]string{"r.rego": strings.NewReplacer("PKG", "a", "RULE", "a").Replace(alwaysRego),
			"g.yaml": "rego_when:\n  - given: messages[*]\n"}, "assert needs at least one condition"},
		{"no Rego to gate", map[string]string{"g.yaml": "rego_when:\n  - given: messages[*]\n    assert: {role: user}\n"},
			"rego_when gates the pack's Rego, and the pack has none"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile(context.Background(), []*Pack{packOf(t, tc.files)}, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// $previous is the message before the element's message: absent for the
// first, and reached from a tool call too.
func TestYAMLPrevious(t *testing.T) {
	record := `{"messages":[{"role":"user","content":"q"},{"role":"user","content":"q"},{"role":"assistant","tool_calls":[{"id":"c","function":{"name":"f","arguments":"{}"}}]}]}`
	tests := []struct{ name, rule string }{
		{"messages", `
    given: messages[*]
    assert: {$previous.text: {not: {same_as: text}}}
    message: '{{index}} repeats the text of the message before it, a {{$previous.role}} message'`},
		{"the first has none", `
    given: messages[*]
    assert: {$previous: present}
    message: '{{index}} has no message before it'`},
		{"from a tool call", `
    given: messages[*].tool_calls[*]
    assert: {$previous.role: assistant}
    message: 'call {{id}} follows a {{$previous.role}} message'`},
	}
	// The pointer is that of the value that failed: the message before.
	want := map[string][]string{
		"messages":           {"error /messages/1 1 repeats the text of the message before it, a user message @/messages/0"},
		"the first has none": {"error /messages/0 0 has no message before it @/messages/0"},
		"from a tool call":   {"error /messages/2/tool_calls/0 call c follows a user message @/messages/1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "rules:\n  - id: r\n    severity: error\n    description: d" + tc.rule + "\n"
			if diff := cmp.Diff(want[tc.name], relHits(t, src, record)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
