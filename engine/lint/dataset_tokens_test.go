package lint_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/tokens"
)

// The dataset document's token summary is computed only when a dataset rule
// that reads it applies under the run's profile: with the built-in packs,
// under openai (dataset-token-cost), not under mistral, whose dataset rule
// (dataset-duplicate) never reads it, nor under the default profile, which
// folds nothing.
func TestDatasetTokensOnlyWhenRead(t *testing.T) {
	packs, err := builtin.Packs()
	if err != nil {
		t.Fatal(err)
	}
	eng, err := policy.Compile(context.Background(), packs, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var recs []jsonl.Record
	for i, text := range []string{"Hi", "Hello there, how are you today?", "Hi"} {
		recs = append(recs, jsonl.Record{Line: i + 1, Data: fmt.Appendf(nil,
			`{"messages": [{"role": "user", "content": %q}, {"role": "assistant", "content": "Fine."}]}`, text)})
	}
	model := &document.Model{Name: "m", Encoding: "o200k_base", Limit: 20, PricePerMillion: 1}
	c, err := tokens.NewCounter("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for _, r := range recs {
		v, err := ast.ParseTerm(string(r.Data))
		if err != nil {
			t.Fatal(err)
		}
		d := document.NewBuilder(document.Chat, "f.jsonl", document.Options{}).Add(r.Line, v.Value.(ast.Object))
		want = append(want, c.Document(d.Value))
	}
	for _, tc := range []struct {
		profile string
		folds   bool
		counted int64
	}{{"default", false, 0}, {"mistral", true, 0}, {"openai", true, 3}} {
		opts := document.Options{Profile: tc.profile, Model: model}
		l := lint.New(eng, opts)
		before := tokens.Examples()
		_, facts := l.CheckFacts(context.Background(), lint.Unit{File: "f.jsonl", Format: document.Chat, Records: recs})
		if (len(facts) > 0) != tc.folds {
			t.Fatalf("%s: %d facts folded, want a fold: %v", tc.profile, len(facts), tc.folds)
		}
		// under openai, example-too-long takes the fold's count: each
		// example is counted once
		if counted := tokens.Examples() - before; counted != tc.counted {
			t.Errorf("%s: the tokens of %d examples were counted, want %d", tc.profile, counted, tc.counted)
		}
		if !tc.folds {
			continue
		}
		ds := lint.NewDataset("f.jsonl", document.Chat, opts)
		for _, f := range facts {
			ds.Add(f)
		}
		got := ds.Document().Get(ast.StringTerm("tokens")).Value
		if tc.profile != "openai" {
			if got.Compare(ast.Null{}) != 0 {
				t.Errorf("%s: tokens = %v, want null", tc.profile, got)
			}
			continue
		}
		type summary struct {
			Encoding                                                    string
			Examples, Min, Median, P95, Max, Total, Billable, OverLimit int
		}
		var sum struct {
			Encoding  string `json:"encoding"`
			Examples  int    `json:"examples"`
			Min       int    `json:"min"`
			Median    int    `json:"median"`
			P95       int    `json:"p95"`
			Max       int    `json:"max"`
			Total     int    `json:"total"`
			Billable  int    `json:"billable"`
			OverLimit int    `json:"over_limit"`
		}
		if err := ast.As(got, &sum); err != nil {
			t.Fatal(err)
		}
		// want holds two equal counts (records 1 and 3) and one other
		lo, hi := min(want[0], want[1]), max(want[0], want[1])
		exp := summary{Encoding: "o200k_base", Examples: 3, Min: lo, Median: want[0], P95: hi, Max: hi,
			Total: want[0] + want[1] + want[2], Billable: min(want[0], 20) + min(want[1], 20) + min(want[2], 20)}
		for _, n := range want {
			if n > 20 {
				exp.OverLimit++
			}
		}
		if diff := cmp.Diff(exp, summary(sum)); diff != "" {
			t.Errorf("openai: token summary (-want +got):\n%s (counts %v)", diff, want)
		}
	}
}

// A run that counts every example builds its documents pruned, with what
// the counter reads (Fields.WithTokenReads), and counts them as built, their
// message views unmaterialized: each count is the whole document's, for
// records with names, tool calls (arguments as strings and as objects),
// tool results and tool definitions, even where no rule reads any of it.
func TestTokensOfPrunedDocuments(t *testing.T) {
	lines := []string{
		`{"messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "name": "ana", "content": "Weather in Paris?"}, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "18C, clear"}, {"role": "assistant", "content": "18C and clear."}], "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Get the weather.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "A city."}, "unit": {"type": "string", "enum": ["c", "f"]}}}}}]}`,
		`{"messages": [{"role": "user", "content": [{"type": "text", "text": "Hi"}, {"type": "text", "text": "there"}]}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c2", "type": "function", "function": {"name": "f", "arguments": {"a": 1}}}]}]}`,
		`{"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello."}]}`,
	}
	c, err := tokens.NewCounter("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	counts := func(f *document.Fields) []int {
		var out []int
		u := lint.Unit{File: "f", Format: document.Chat}
		for i, l := range lines {
			u.Records = append(u.Records, jsonl.Record{Line: i + 1, Data: []byte(l)})
		}
		lint.Documents(u, document.Options{Fields: f}, func(d *document.Document, _ *jsonl.Record) {
			out = append(out, c.Document(d.Value))
		})
		return out
	}
	want := counts(nil)
	readsNothing := document.NewFields(func(...string) bool { return false })
	for name, f := range map[string]*document.Fields{
		"views": readsNothing.WithWholeRaw().WithTokenReads(),
		"plain": readsNothing.WithWholeRaw().WithTokenReads().PlainMessages(),
	} {
		if diff := cmp.Diff(want, counts(f)); diff != "" {
			t.Errorf("%s: tokens of pruned documents (-whole +pruned):\n%s", name, diff)
		}
	}
}
