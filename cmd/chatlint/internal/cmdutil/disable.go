package cmdutil

import "github.com/chatlint/chatlint/engine/rule"

// CheckDisable refuses a --disable naming no rule of the packs: a typo
// would otherwise leave the rule on while the run looks configured.
func CheckDisable(ids []string, known map[string]bool, all []rule.Rule) error {
	for _, id := range ids {
		if !known[id] {
			return UsageError("--disable: unknown rule %q (chatlint rules lists them)%s", id, rule.Suggest(id, all))
		}
	}
	return nil
}
