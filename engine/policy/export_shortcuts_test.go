package policy

// SetYAMLShortcuts turns the YAML evaluator's shortcuts on or off for the
// equivalence test, and returns the previous setting.
func SetYAMLShortcuts(on bool) bool {
	was := yamlShortcuts
	yamlShortcuts = on
	return was
}
