// Package yamlrule compiles the YAML rules of a pack (given paths, where,
// assert, the relational let/group/cases forms, session rules) into
// matchers and evaluates them over normalized documents, without OPA.
// policy.Engine decides which rules run on a document and joins their hits
// with the Rego packages'.
package yamlrule

import "github.com/chatlint/chatlint/engine/policy/pack"

// The pack vocabulary, as the rules of this package name it.
type (
	File         = pack.File
	Hit          = pack.Hit
	CompileError = pack.CompileError
)

// actArgs are an action's arguments as a rule file writes them.
type actArgs = map[string]any
