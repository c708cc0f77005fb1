package fix

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/policy"
)

// TestFixer: what Fix decides for one unit — the records to write, the
// rejects, the notes and the tally — for a unit of no known format, a
// document fixed, one left unchanged, one a rule keeps and one whose
// actions conflict.
func TestFixer(t *testing.T) {
	pack := &policy.Pack{Name: "p", Kind: policy.KindCleanup, Rego: []policy.File{{Name: "p.rego", Source: []byte(`package chatlint.p

actions contains {"op": "set_content", "target": sprintf("/messages/%d", [i]), "content": "", "rule": "empty-system"} if {
	some i, m in input.messages
	m.role == "system"
	m.text != ""
}

actions contains {"op": "keep_record", "rule": "keeper", "reason": "asked to keep"} if {
	some m in input.messages
	m.text == "keep"
}

actions contains {"op": "drop_message", "target": sprintf("/messages/%d", [i]), "rule": "dropper"} if {
	some i, m in input.messages
	m.text == "conflict"
}

actions contains {"op": "set_content", "target": sprintf("/messages/%d", [i]), "content": "x", "rule": "setter"} if {
	some i, m in input.messages
	m.text == "conflict"
}
`)}}}
	eng, err := policy.Compile(context.Background(), []*policy.Pack{pack}, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		Records []string
		Rejects []string
		Notes   []string
		Left    bool
		Known   bool
		Tally   Tally
	}
	cases := []struct {
		name   string
		format document.Format
		lines  []string
		want   result
	}{
		{
			name:  "no known format: JSON that is no object dropped, not JSON kept",
			lines: []string{`[1, 2]`, `not json`, `{"a": 1}`},
			want: result{
				Records: []string{"2 not json false", `3 {"a": 1} false`},
				Rejects: []string{"1 jsonl-syntax"},
				Notes: []string{
					"dropped 1 warning jsonl-syntax: a record must be a JSON object, not an array; moved to the rejects file",
					"not-json 2 warning jsonl-syntax: not JSON; left as it is (chatlint repair drops such lines)",
				},
				Tally: Tally{Documents: 1, Changed: 1, Dropped: 1, Actions: []RuleActions{{Rule: lint.RuleSyntax, N: 1}}},
			},
		},
		{
			name:  "no known format, nothing to drop",
			lines: []string{`{"a": 1}`},
			want:  result{Records: []string{`1 {"a": 1} false`}},
		},
		{
			name:   "fixed",
			format: document.Chat,
			lines:  []string{`{"messages":[{"role":"system","content":"Be nice."},{"role":"user","content":"hi"}]}`},
			want: result{
				Records: []string{`1 {"messages":[{"role":"system","content":""},{"role":"user","content":"hi"}]} true`},
				Known:   true,
				Tally:   Tally{Documents: 1, Changed: 1, Actions: []RuleActions{{Rule: "empty-system", N: 1}}},
			},
		},
		{
			name:   "unchanged",
			format: document.Chat,
			lines:  []string{`{"messages":[{"role":"user","content":"hi"}]}`},
			want: result{
				Records: []string{`1 {"messages":[{"role":"user","content":"hi"}]} false`},
				Known:   true,
				Tally:   Tally{Documents: 1},
			},
		},
		{
			name:   "kept by a rule",
			format: document.Chat,
			lines:  []string{`{"messages":[{"role":"system","content":"s"},{"role":"user","content":"keep"}]}`},
			want: result{
				Records: []string{`1 {"messages":[{"role":"system","content":"s"},{"role":"user","content":"keep"}]} false`},
				Notes:   []string{"left 1 warning keeper: asked to keep; the record was left as it was"},
				Left:    true,
				Known:   true,
				Tally:   Tally{Documents: 1, Unfixed: 1},
			},
		},
		{
			name:   "conflicting actions",
			format: document.Chat,
			lines:  []string{`{"messages":[{"role":"user","content":"conflict"}]}`},
			want: result{
				Records: []string{`1 {"messages":[{"role":"user","content":"conflict"}]} false`},
				Notes:   []string{"left 1 error fix: conflicting actions on /messages/0: drop_message (rule dropper) and set_content (rule setter)"},
				Left:    true,
				Known:   true,
				Tally:   Tally{Documents: 1, Unfixed: 1},
			},
		},
	}
	kinds := map[NoteKind]string{NoteLeft: "left", NoteDropped: "dropped", NoteNotJSON: "not-json"}
	f := New(OnFormat(document.Chat, eng), Options{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := f.Fix(context.Background(), lint.Unit{File: "t.jsonl", Format: c.format, Records: records(c.lines...)})
			got := result{Left: res.Left != nil, Known: res.Known, Tally: res.Tally}
			for i, r := range res.Records {
				got.Records = append(got.Records, fmt.Sprintf("%d %s %v", r.Line, r.Data, i < len(res.Changed) && res.Changed[i]))
			}
			for _, r := range res.Rejects {
				got.Rejects = append(got.Rejects, fmt.Sprintf("%d %s", r.Line, r.Rule))
			}
			for _, n := range res.Notes {
				got.Notes = append(got.Notes, fmt.Sprintf("%s %d %s %s: %s", kinds[n.Kind], n.Line, n.Severity, n.Rule, n.Message))
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("Fix (-want +got):\n%s", d)
			}
		})
	}
}
