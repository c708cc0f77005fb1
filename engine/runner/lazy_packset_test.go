package runner_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/internal/testinputs"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/internal/sweep"
)

// TestLazyPackSetsSameFindings: with policy.Options.LazyRego, as every
// command compiles the built-in packs, a document is given a program of
// the packs whose Rego applies to its format and profile alone, and is
// built with what that program reads; a file's dataset document one of the
// packs with a dataset rule for it. The findings over every fixture file
// (every format, one run: a worker meets several programs) are those of
// the engine compiled whole at once, under each profile.
func TestLazyPackSetsSameFindings(t *testing.T) {
	t.Parallel()
	files := testinputs.Files(t, false)
	sets := testinputs.PackSets(t)
	for _, name := range []string{"built-in check packs", "builtin:transcript"} {
		packs := sets[name]
		ctx := context.Background()
		eager, err := policy.Compile(ctx, packs, policy.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		profiles := []string{document.DefaultProfile}
		for _, p := range eager.Profiles() {
			profiles = append(profiles, p.Name)
		}
		if len(profiles) > 2 && !sweep.Full() {
			profiles = append(profiles[:1:1], append([]string{"openai"}, sweep.Strings(profiles[1:], 1)...)...)
		}
		for _, profile := range profiles {
			// A lazy engine per profile: each is given its programs on the
			// documents that need them (their compiled parts are kept by
			// the packs' content for the next).
			lazy, err := policy.Compile(ctx, packs, policy.Options{LazyRego: true})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want := findings(t, eager, files, document.Options{Profile: profile})
			got := findings(t, lazy, files, document.Options{Profile: profile})
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s, profile %s: findings (-compiled whole +per pack set):\n%s", name, profile, diff)
			}
			if len(want) == 0 {
				t.Errorf("%s, profile %s: no finding at all: the comparison proves nothing", name, profile)
			}
		}
	}
}
