package policy

import (
	"slices"

	"github.com/chatlint/chatlint/engine/rule"
)

// AllRules returns every rule of the compiled packs, disabled ones
// included: what a --disable or a config entry may name.
func (e *Engine) AllRules() []rule.Rule { return slices.Clone(e.rules) }
