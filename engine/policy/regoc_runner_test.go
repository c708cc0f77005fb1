package policy_test

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/internal/testinputs"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/runner"
	"github.com/chatlint/chatlint/internal/sweep"
)

// TestRegoCompiledSameFindings: through the whole check path — every
// input format detected, every profile a pack declares — a built-in pack
// whose Rego compiles gives exactly the findings (and the per-file
// errors) it gives on topdown, over every fixture file and the shared
// sample data.
func TestRegoCompiledSameFindings(t *testing.T) {
	files := testinputs.Files(t, !testing.Short())
	all, err := builtin.All()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, p := range all {
		compiled, topdown := regocEngines(t, []*policy.Pack{p})
		if len(policy.RegoCompiled(compiled)) == 0 {
			continue
		}
		checked++
		profiles := []string{document.DefaultProfile}
		for _, pr := range compiled.Profiles() {
			profiles = append(profiles, pr.Name)
		}
		total := 0
		// The default run compares the default profile and one other; the
		// `exhaustive` build tag compares every profile.
		if len(profiles) > 2 {
			profiles = append(profiles[:1], sweep.Strings(profiles[1:], 1)...)
		}
		for _, profile := range profiles {
			want, wantErrs := regocFindings(topdown, files, profile)
			got, gotErrs := regocFindings(compiled, files, profile)
			total += len(want)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%s, profile %s: findings (-topdown +compiled):\n%s", p.Name, profile, d)
			}
			if d := cmp.Diff(wantErrs, gotErrs); d != "" {
				t.Errorf("%s, profile %s: errors (-topdown +compiled):\n%s", p.Name, profile, d)
			}
		}
		if total == 0 {
			t.Errorf("%s: no finding under any profile: the comparison proves nothing", p.Name)
		}
		t.Logf("%s: %v, %d findings compared, %d documents fell back to topdown", p.Name, policy.RegoCompiled(compiled), total, policy.RegoFallbacks(compiled))
	}
	if checked == 0 {
		t.Error("no built-in pack compiles: nothing compared")
	}
}

func regocFindings(eng *policy.Engine, files []string, profile string) ([]finding.Finding, []string) {
	r := &runner.Runner{Engine: eng, Opts: runner.Options{Workers: 1, Document: document.Options{Profile: profile}}}
	var in []runner.Input
	for _, f := range files {
		in = append(in, runner.Input{Name: f, Path: f})
	}
	var out []finding.Finding
	_, errs := r.Run(context.Background(), in, func(f finding.Finding) { out = append(out, f) })
	var es []string
	for _, e := range errs {
		es = append(es, e.Error())
	}
	slices.SortFunc(out, finding.Compare)
	return out, es
}

// TestBuiltinRegoCompiles: the built-in packages that check every record
// of their format stay in the compiled subset; one that drifts out of it
// (a constant function argument, an `every`) would silently run on
// topdown again, several times slower.
func TestBuiltinRegoCompiles(t *testing.T) {
	all, err := builtin.All()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"claude-code": "chatlint.claude_code", "contract": "chatlint.contract", "goose": "chatlint.goose", "openai-tools": "chatlint.openai_tools", "transcript": "chatlint.transcript"}
	for _, p := range all {
		pkg, ok := want[p.Name]
		if !ok {
			continue
		}
		delete(want, p.Name)
		eng, err := policy.Compile(context.Background(), []*policy.Pack{p}, policy.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := policy.RegoCompiled(eng); !slices.Contains(got, pkg) && !slices.Contains(got, "data."+pkg) {
			t.Errorf("pack %s: compiled packages %v, want %s among them (CHATLINT_REGO_EVAL=explain says why not)", p.Name, got, pkg)
		}
	}
	for name := range want {
		t.Errorf("no built-in pack %s", name)
	}
}
