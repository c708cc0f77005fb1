package cmdutil

import (
	"github.com/chatlint/chatlint/engine/policy"
)

// CheckActive refuses a run that could only pass: one without any active
// rule, or under a profile no pack knows (a misspelt profile would silently
// check as the default one).
func CheckActive(eng *policy.Engine, profile string) error {
	if len(eng.Rules()) == 0 {
		return UsageError("no rule is active: --no-builtin needs at least one --pack, and --disable must leave a rule on")
	}
	if err := eng.CheckProfile(profile); err != nil {
		return UsageError("--profile: %v", err)
	}
	return nil
}
