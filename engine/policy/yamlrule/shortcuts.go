package yamlrule

// yamlShortcuts switches on the evaluator's shortcuts for plain and
// relational YAML rules: JSON Pointers built only for findings
// (pointer.go), conditions on the document hoisted out of the element
// loop and the walk's prefilter on a member of constant-testing conditions
// (hoist.go), a keyed join's partners counted by their key's group
// (groups.go). Each gives the findings the evaluation without it gives;
// the equivalence test turns them off to prove it.
var yamlShortcuts = true

// SetShortcuts turns the shortcuts on or off, and returns the previous
// setting: the equivalence tests compare the findings with and without them.
// Not safe while rules are evaluated.
func SetShortcuts(on bool) bool {
	was := yamlShortcuts
	yamlShortcuts = on
	return was
}
