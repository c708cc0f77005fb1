package policy_test

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/policy"
)

// TestRegoBenchTeamRulesCompile: both team rules of the benchmark matrix
// (scripts/bench-team: one written in the plain subset, one with every and
// sprintf over a set) run on the compiled closures, and give what topdown
// gives.
func TestRegoBenchTeamRulesCompile(t *testing.T) {
	records := regocRecords(t, false)
	var some = records[len(records)-400:] // the generated ones
	for i := 0; i < len(records)-400; i += 10 {
		some = append(some, records[i])
	}
	for _, name := range []string{"compiled", "outside"} {
		src, err := os.ReadFile("../../scripts/bench-team/" + name + ".rego.in")
		if err != nil {
			t.Fatal(err)
		}
		rego := strings.ReplaceAll(string(src), "MOD == REM", "2 == 0")
		pack := &policy.Pack{Name: "team", Rego: []policy.File{{Name: "team.rego", Source: []byte(rego)}}}
		compiled, topdown := regocEngines(t, []*policy.Pack{pack})
		if got, want := policy.RegoCompiled(compiled), []string{"data.chatlint.team"}; !cmp.Equal(got, want) {
			t.Errorf("%s: compiled packages %v, want %v", name, got, want)
			continue
		}
		if fired := regocCompare(t, name, compiled, topdown, some); fired < 50 {
			t.Errorf("%s: only %d records gave a finding", name, fired)
		}
		if n := policy.RegoFallbacks(compiled); n > 0 {
			t.Errorf("%s: %d records fell back to topdown", name, n)
		}
	}
}
