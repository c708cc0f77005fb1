package policy

import "github.com/chatlint/chatlint/engine/policy/yamlrule"

// SetYAMLShortcuts turns the YAML evaluator's shortcuts on or off for the
// equivalence test, and returns the previous setting.
func SetYAMLShortcuts(on bool) bool { return yamlrule.SetShortcuts(on) }
