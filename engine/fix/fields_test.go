package fix

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
)

// TestFixDecodesWhatTheRulesRead: the documents fix builds of a Codex
// rollout leave out the members of each line's payload that neither the
// cleanup packs nor the applier read (a command's output, a reasoning
// item's encrypted content), as check's do; they used to be decoded whole.
func TestFixDecodesWhatTheRulesRead(t *testing.T) {
	f := codexFixer(t)
	opts := f.evs.Document(document.Codex, document.Options{})
	if opts.Fields == nil {
		t.Fatal("fix builds Codex documents whole")
	}
	p := document.Projection(document.Codex, opts)
	if p == nil || p.Members["payload"] == nil {
		t.Fatalf("a Codex line is decoded whole: %+v", p)
	}
	omit := p.Members["payload"].Omit
	for _, name := range []string{"aggregated_output", "formatted_output", "encrypted_content", "message"} {
		if !omit[name] {
			t.Errorf("payload member %s is decoded; the cleanup packs do not read it", name)
		}
	}
}

// TestFixBuildsNoLookup: the cleanup packs read no input.lookup (the sets
// of every call, id and result), so fix builds none: a rule reading input
// whole (object.get(input, ...)) counted as reading it, and the inline
// rules read it for their tool messages.
func TestFixBuildsNoLookup(t *testing.T) {
	f := codexFixer(t)
	for _, format := range []document.Format{document.Codex, document.Chat, document.ProxyLog, document.ClaudeCode} {
		if opts := f.evs.Document(format, document.Options{}); !opts.SkipLookup {
			t.Errorf("%s: fix builds the lookup", format)
		}
	}
}

// TestFixProjectedSameAsWhole: fixing with documents built from only what
// the rules read writes the same records, rejects and tallies as fixing
// with whole documents, on a rollout whose results are out of place and on
// chat records each cleanup rule acts on.
func TestFixProjectedSameAsWhole(t *testing.T) {
	chat := []string{
		`{"messages":[{"role":"user","content":"hi","extra":[0,0,0]},{"role":"user","content":"hi","extra":[1]}]}`,
		`{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"type":"function","function":{"name":"f","arguments":"{}"}}]}]}`,
		`{"messages":[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"c9","content":"1"}]}`,
		`{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"user","content":"well?"},{"role":"tool","tool_call_id":"c1","content":"1"}]}`,
		`{"messages":[{"role":"user","content":[{"type":"text","value":"x"}]},{"role":"tool","content":"1"}],"tools":"[]"}`,
		`{"messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"}]}`,
		// Records the unreadable rules read raw of: content and tool_calls
		// as objects, a call that is no object, a part of unknown type.
		`{"messages":[{"role":"user","content":{"a":1,"b":"x"}},{"role":"user","content":{"a":1,"b":"x"}}]}`,
		`{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":{"c1":{"id":"c1"}}},{"role":"tool","tool_call_id":"c1","content":"1"}]}`,
		`{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[7,{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c2","content":"1"}]}`,
		`{"messages":[{"role":"user","content":[{"type":"blob","text":"x"}]},{"role":"tool","tool_call_id":"c2","content":"1"}]}`,
		`{"messages":[{"role":"user","content":[{"type":"text","text":"x"}],"extra":{"big":[0,0,0]}},{"role":"user","content":[{"type":"text","text":"x"}],"extra":{"big":[1]}}]}`,
		`{"messages":[{"role":"assistant","content":"a","timestamp":"t"},{"role":"assistant","content":"a","timestamp":"u"}],"tools":{"f":1}}`,
		// Inline records, which the inline rules wrap and drop results of
		// (their lookup is built only for the whole documents).
		`{"messages":[{"role":"user","content":"6*8?"},{"role":"assistant","content":"<tool_call>{\"name\": \"multiply\", \"arguments\": {\"a\": 6, \"b\": 8}}</tool_call>"},{"role":"tool","content":"48"},{"role":"assistant","content":"48."}]}`,
		`{"messages":[{"role":"user","content":"6*8?"},{"role":"assistant","content":"<tool_call>{\"name\": \"multiply\", \"arguments\": {\"a\": 6, \"b\": 8}}</tool_call>"},{"role":"tool","content":"<tool_result tool_call_id=\"inline-1-0\">48</tool_result>"},{"role":"tool","content":"49"}]}`,
		`{"messages":[{"role":"tool","content":"0"},{"role":"user","content":"q"},{"role":"assistant","content":"<tool_call>{\"name\": \"a\"}</tool_call><tool_call>{\"name\": \"b\"}</tool_call>"},{"role":"tool","content":"1"},{"role":"tool","content":"2"},{"role":"tool","content":"3"}]}`,
	}
	units := []lint.Unit{codexUnit(2000)}
	for i, l := range chat {
		units = append(units, lint.Unit{File: "c.jsonl", Format: document.Chat, Records: []jsonl.Record{{Line: i + 1, Data: []byte(l), End: "\n"}}})
	}
	projected := codexFixer(t)
	whole := codexFixer(t)
	whole.opts.Document.Fields = document.AllFields()
	for _, u := range units {
		got := projected.Fix(context.Background(), u)
		want := whole.Fix(context.Background(), u)
		if got.Outcome != nil && got.Outcome.builds > 0 && projected.evs.Document(u.Format, document.Options{}).Fields == nil {
			t.Errorf("%s: built whole", u.Format)
		}
		for _, fx := range []*Fixed{&got, &want} {
			fx.Outcome = nil
		}
		if d := cmp.Diff(want, got, cmp.Comparer(func(a, b error) bool { return (a == nil) == (b == nil) && (a == nil || a.Error() == b.Error()) })); d != "" {
			t.Errorf("%s line %d: projected fix differs (-whole +projected):\n%s", u.Format, u.Records[0].Line, d)
		}
	}
}
