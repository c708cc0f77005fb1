package main

import (
	"github.com/chatlint/chatlint/engine/config"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/report"
	"github.com/chatlint/chatlint/engine/runner"
)

// activeRules lists the engine's rules and the reader's own, the way
// `chatlint rules` shows them.
func activeRules(eng *policy.Engine) []policy.Rule {
	return append(eng.Rules(), runner.CoreRules...)
}

// reportRules hands rule metadata to the report writers, which do not import
// the engine.
func reportRules(rules []policy.Rule) []report.Rule {
	out := make([]report.Rule, len(rules))
	for i, r := range rules {
		out[i] = report.Rule{ID: r.ID, Title: r.Title, Severity: r.Severity, Pack: r.Pack,
			Description: r.Description, Fix: r.Fix, Source: r.Source}
	}
	return out
}

// configured applies the config's top-level rule levels to the metadata:
// rules turned off are left out, others take their configured severity.
func configured(rules []policy.Rule, cfg *config.Config) []policy.Rule {
	if cfg == nil || len(cfg.Rules) == 0 {
		return rules
	}
	out := make([]policy.Rule, 0, len(rules))
	for _, r := range rules {
		if lvl, ok := cfg.Rules[r.ID]; ok {
			if lvl == config.Off {
				continue
			}
			r.Severity = lvl.Severity()
		}
		out = append(out, r)
	}
	return out
}
