package policy

// yamlShortcuts switches on the evaluator's shortcuts for plain and
// relational YAML rules: JSON Pointers built only for findings
// (yaml_pointer.go), conditions on the document hoisted out of the element
// loop and the walk's prefilter on a member of constant-testing conditions
// (yaml_hoist.go). Each gives the findings the evaluation without it gives;
// the equivalence test turns them off to prove it.
var yamlShortcuts = true
