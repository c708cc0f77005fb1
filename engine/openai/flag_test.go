package openai

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFlagKeysMatchTheRule keeps FlagKeys equal to the keys the integrity
// pack's tool-result-flagged rule looks for (its truthy_keys), so convert's
// note says what the rule will decide.
func TestFlagKeysMatchTheRule(t *testing.T) {
	b, err := os.ReadFile("../../rules/integrity/blocks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*truthy_keys: \[([^\]]*)\]`).FindSubmatch(b)
	if m == nil {
		t.Fatal("blocks.yaml has no truthy_keys")
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
