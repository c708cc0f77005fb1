package openai

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFlagKeysMatchTheRule keeps FlagKeys equal to the integrity pack's
// flag_keys, so convert's note says what tool-result-flagged will decide.
func TestFlagKeysMatchTheRule(t *testing.T) {
	b, err := os.ReadFile("../../policies/integrity/blocks.rego")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^flag_keys := \{([^}]*)\}`).FindSubmatch(b)
	if m == nil {
		t.Fatal("blocks.rego has no flag_keys")
	}
	var rule []string
	for _, k := range strings.Split(string(m[1]), ",") {
		rule = append(rule, strings.Trim(strings.TrimSpace(k), `"`))
	}
	got := slices.Clone(FlagKeys)
	slices.Sort(rule)
	slices.Sort(got)
	if diff := cmp.Diff(rule, got); diff != "" {
		t.Errorf("FlagKeys differ from blocks.rego's flag_keys (-rule +FlagKeys):\n%s", diff)
	}
}
