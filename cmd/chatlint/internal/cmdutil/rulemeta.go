package cmdutil

import (
	"github.com/chatlint/chatlint/engine/config"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/rule"
)

// ActiveRules lists the engine's rules and the reader's own, the way
// `chatlint rules` shows them.
func ActiveRules(eng *policy.Engine) []rule.Rule {
	return append(eng.Rules(), lint.CoreRules...)
}

// Configured applies the config's top-level rule levels to the metadata:
// rules turned off are left out, others take their configured severity.
func Configured(rules []rule.Rule, cfg *config.Config) []rule.Rule {
	if cfg == nil || len(cfg.Rules) == 0 {
		return rules
	}
	out := make([]rule.Rule, 0, len(rules))
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
