package cmdutil

import (
	"slices"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/rule"
)

// UnderProfile keeps the rules that run under a profile (reports list
// what the run checked, not the rules of other profiles), each with the
// severity its findings have under it. Apply it before the config's rule
// levels, which check applies after the profile's.
func UnderProfile(eng *policy.Engine, rules []rule.Rule, profile string) []rule.Rule {
	if profile == "" {
		profile = document.DefaultProfile
	}
	rules = slices.DeleteFunc(rules, func(r rule.Rule) bool { return !r.AppliesUnder(profile) })
	for i := range rules {
		rules[i].Severity = eng.SeverityUnder(profile, rules[i])
	}
	return rules
}

// PickModel resolves --model against the packs' model tables: the named
// model, else the tables' default, else none (rules that need a model then
// stay silent).
func PickModel(eng *policy.Engine, name string) (*document.Model, error) {
	if name == "" {
		name = eng.DefaultModel()
		if name == "" {
			return nil, nil
		}
	}
	m, err := eng.Model(name)
	if err != nil {
		return nil, UsageError("--model: %v", err)
	}
	return m, nil
}
