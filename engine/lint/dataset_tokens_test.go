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
