package stats

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/runner"
)

// TestStatsTrainingMeaning: preference answers are counted (their tokens
// and messages), KTO labels, weight-0 messages and images are told apart,
// and a file no format claims keeps its name and the finding.
func TestStatsTrainingMeaning(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) runner.Input {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return runner.Input{Name: name, Path: p}
	}
	inputs := []runner.Input{
		write("a-pref.jsonl", `{"conversations":[{"from":"human","value":"Name a prime."}],"chosen":{"from":"gpt","value":"Seven is a prime number."},"rejected":{"from":"gpt","value":"Eight."}}
`),
		write("a2-dpo.jsonl", `{"input":{"messages":[{"role":"user","content":"Name a prime."}]},"preferred_output":[{"role":"assistant","content":"Seven is a prime number."}],"non_preferred_output":[{"role":"assistant","content":"Eight."}]}
`),
		write("b-kto.jsonl", `{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello.","weight":0},{"role":"user","content":"<image>What is it?"},{"role":"assistant","content":"A cat."}],"images":["cat.png"],"label":true}
{"messages":[{"role":"user","content":[{"type":"text","text":"And this?"},{"type":"image_url","image_url":{"url":"https://example.com/d.png"}}]},{"role":"assistant","content":"A cow."}],"label":false}
`),
		write("c-unknown.jsonl", `{"foo":1}`+"\n"),
	}
	model := &document.Model{Name: "m", Encoding: "o200k_base", Limit: 1000, PricePerMillion: 1}
	res, errs, err := Compute(context.Background(), &runner.Runner{Opts: runner.Options{Workers: 2}}, inputs, Options{Model: model})
	if err != nil || len(errs) > 0 {
		t.Fatal(err, errs)
	}
	if len(res.Files) != 4 {
		t.Fatalf("%d files", len(res.Files))
	}
	pref, dpo, kto, unknown := res.Files[0], res.Files[1], res.Files[2], res.Files[3]
	type view struct {
		File      string
		Kinds     map[string]int
		Messages  map[string]int
		Untrained int
		Images    int
	}
	got := []view{
		{pref.File, pref.Kinds, pref.Messages, pref.Untrained, pref.Images},
		{dpo.File, dpo.Kinds, dpo.Messages, dpo.Untrained, dpo.Images},
		{kto.File, kto.Kinds, kto.Messages, kto.Untrained, kto.Images},
	}
	want := []view{
		{"a-pref.jsonl", map[string]int{"preference": 1}, map[string]int{"user": 1, "assistant": 2}, 0, 0},
		{"a2-dpo.jsonl", map[string]int{"preference": 1}, map[string]int{"user": 1, "assistant": 2}, 0, 0},
		{"b-kto.jsonl", map[string]int{"kto-desirable": 1, "kto-undesirable": 1}, map[string]int{"user": 3, "assistant": 3}, 1, 2},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// The two files hold the same pair: the same tokens, the answers
	// included (the prompt alone is about 14 tokens).
	if pref.Tokens.Total != dpo.Tokens.Total || pref.Tokens.Total < 25 {
		t.Errorf("preference tokens %d and %d: the answers are not counted alike", pref.Tokens.Total, dpo.Tokens.Total)
	}
	if unknown.File != "c-unknown.jsonl" || unknown.Unrecognized == nil || unknown.Unrecognized.Rule != "unrecognized-format" {
		t.Errorf("unrecognized file: %+v", unknown)
	}
}

// TestStatsSessions: a session (a Codex rollout, a Claude Code session) has
// a null raw: stats counts its messages rather than failing on the record
// it does not have (it dereferenced the missing raw and panicked).
func TestStatsSessions(t *testing.T) {
	for _, f := range []string{"codex-repairs", "claude-code-repairs"} {
		t.Run(f, func(t *testing.T) {
			p := filepath.Join("..", "..", "fixtures", "fix", f, "input.jsonl")
			model := &document.Model{Name: "m", Encoding: "o200k_base", Limit: 1000, PricePerMillion: 1}
			res, errs, err := Compute(context.Background(), &runner.Runner{}, []runner.Input{{Name: p, Path: p}}, Options{Model: model})
			if err != nil || len(errs) > 0 {
				t.Fatal(err, errs)
			}
			if got := res.Files[0]; got.Records != 1 || got.Messages["assistant"] == 0 || got.Kinds["chat"] != 1 {
				t.Errorf("records %d, messages %v, kinds %v", got.Records, got.Messages, got.Kinds)
			}
		})
	}
}
