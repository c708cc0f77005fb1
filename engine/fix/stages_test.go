package fix

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy"
)

// TestCleanupPlan: each pack is one stage however many formats run it, a
// format's stages keep their order (Claude Code's openai-tools before
// transcript), and named packs run on every format in the order given.
func TestCleanupPlan(t *testing.T) {
	refsOf := func(p Plan, f document.Format) []string {
		var refs []string
		for _, i := range p.ByFormat[f] {
			refs = append(refs, p.Refs[i])
		}
		return refs
	}
	cases := []struct {
		name  string
		packs []string
		want  map[document.Format][]string
	}{
		{
			name: "defaults",
			want: map[document.Format][]string{
				document.Chat:              {"builtin:openai-tools"},
				document.PiSession:         {"builtin:transcript"},
				document.ClaudeCode:        {"builtin:openai-tools", "builtin:transcript"},
				document.Codex:             {"builtin:openai-tools", "builtin:transcript"},
				document.OpenAIBatchOutput: nil,
			},
		},
		{
			name:  "named packs",
			packs: []string{"builtin:transcript", "./team"},
			want: map[document.Format][]string{
				document.Chat:              {"builtin:transcript", "./team"},
				document.ClaudeCode:        {"builtin:transcript", "./team"},
				document.OpenAIBatchOutput: {"builtin:transcript", "./team"},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := CleanupPlan(c.packs)
			seen := map[string]bool{}
			for _, r := range p.Refs {
				if seen[r] {
					t.Errorf("pack %s staged twice: %v", r, p.Refs)
				}
				seen[r] = true
			}
			got := map[document.Format][]string{}
			for f := range c.want {
				got[f] = refsOf(p, f)
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("stages per format (-want +got):\n%s", d)
			}
		})
	}
}

// TestPlanCompile: each stage is compiled once, and a worker's evaluators
// are its own, one per stage, shared by the formats that run the stage.
func TestPlanCompile(t *testing.T) {
	p := CleanupPlan(nil)
	compiled := map[string]int{}
	s, err := p.Compile(func(_ int, ref string) (*policy.Engine, error) {
		compiled[ref]++
		pack := &policy.Pack{Name: ref[len("builtin:"):], Rego: []policy.File{{Name: "p.rego", Source: []byte("package chatlint.p\n")}}}
		return policy.Compile(context.Background(), []*policy.Pack{pack}, policy.Options{})
	})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string]int{"builtin:openai-tools": 1, "builtin:transcript": 1}, compiled); d != "" {
		t.Errorf("compilations per pack (-want +got):\n%s", d)
	}
	if s.Any() == nil {
		t.Fatal("Any: no engine")
	}
	w1, w2 := s.Evaluators(), s.Evaluators()
	chat, cc := w1.For(document.Chat), w1.For(document.ClaudeCode)
	if len(chat) != 1 || len(cc) != 2 {
		t.Fatalf("evaluators: chat %d, claude-code %d; want 1 and 2", len(chat), len(cc))
	}
	if chat[0] != cc[0] {
		t.Error("one worker has two evaluators of the openai-tools stage")
	}
	if w2.For(document.Chat)[0] == chat[0] {
		t.Error("two workers share an evaluator")
	}
	if n := len(w1.For(document.OpenAIBatchOutput)); n != 0 {
		t.Errorf("batch outputs have %d evaluators, want none", n)
	}
}

// TestOnFormat: convert's stages run on the one format given.
func TestOnFormat(t *testing.T) {
	eng, err := policy.Compile(context.Background(), []*policy.Pack{{Name: "p", Rego: []policy.File{{Name: "p.rego", Source: []byte("package chatlint.p\n")}}}}, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := OnFormat(document.Chat, eng, eng)
	w := s.Evaluators()
	if n := len(w.For(document.Chat)); n != 2 {
		t.Errorf("chat: %d evaluators, want 2", n)
	}
	if n := len(w.For(document.Gemini)); n != 0 {
		t.Errorf("gemini: %d evaluators, want none", n)
	}
}
