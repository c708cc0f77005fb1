package builtin

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy"
)

// Every input format names default cleanup packs, and each is a built-in
// pack of kind cleanup: a new format without one would make fix fail on it.
// Only a format fix refuses outright (its adapter's Unfixable) has none.
func TestDefaultCleanup(t *testing.T) {
	packs, err := Cleanup()
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, p := range packs {
		kinds[p.Name] = p.Kind
	}
	for _, a := range document.Adapters() {
		if len(a.Cleanup) == 0 && a.Unfixable == nil {
			t.Errorf("format %s: no default cleanup pack", a.Format)
		}
		for _, name := range a.Cleanup {
			if kinds[name] != policy.KindCleanup {
				t.Errorf("format %s: default cleanup pack %q is not a built-in cleanup pack (have %v)", a.Format, name, kinds)
			}
		}
	}
}

func TestCleanupRefs(t *testing.T) {
	for _, tc := range []struct {
		f     document.Format
		packs []string
		want  []string
	}{
		{document.PiSession, nil, []string{"builtin:transcript"}},
		{document.Chat, nil, []string{"builtin:openai-tools"}},
		{document.Chat, []string{"team/", "builtin:goose"}, []string{"team/", "builtin:goose"}},
		{document.PiSession, []string{"team/"}, []string{"team/"}},
		{document.ClaudeCode, nil, []string{"builtin:openai-tools", "builtin:transcript"}},
		{document.Codex, []string{"team/"}, []string{"team/"}},
		{document.Codex, nil, []string{"builtin:openai-tools", "builtin:transcript"}},
		{document.ShareGPT, nil, []string{"builtin:openai-tools"}},
		{document.ProxyLog, nil, []string{"builtin:openai-tools"}},
		{document.OpenAIBatchOutput, nil, nil},
		{document.GooseSession, nil, nil},
		{"csv", nil, nil},
	} {
		if diff := cmp.Diff(tc.want, CleanupRefs(tc.f, tc.packs)); diff != "" {
			t.Errorf("%s %q (-want +got):\n%s", tc.f, tc.packs, diff)
		}
	}
}
