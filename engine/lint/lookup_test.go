package lint

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy"
)

// With the built-in packs, a document's lookup is built only for the
// formats and profiles where a rule that reads it runs: the claude-code
// pack's Rego for claude-code sessions under every profile, the finetune
// pack's for chat files under the provider profiles. A chat file under the
// default profile, where only YAML rules run, builds none.
func TestLookupOnlyWhereRead(t *testing.T) {
	packs, err := builtin.Packs()
	if err != nil {
		t.Fatal(err)
	}
	eng, err := policy.Compile(context.Background(), packs, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	formats := []document.Format{document.Chat, document.ProxyLog, document.ShareGPT, document.ClaudeCode}
	for _, tc := range []struct {
		profile string
		want    map[document.Format]bool
	}{
		{"default", map[document.Format]bool{document.ClaudeCode: true}},
		{"openai", map[document.Format]bool{document.Chat: true, document.ClaudeCode: true}},
	} {
		l := New(eng, document.Options{Profile: tc.profile})
		got := map[document.Format]bool{}
		for _, f := range formats {
			if !l.plan(f).opts.SkipLookup {
				got[f] = true
			}
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s: formats whose lookup is built (-want +got):\n%s", tc.profile, d)
		}
	}
}
