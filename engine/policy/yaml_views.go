package policy

import (
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
)

// The YAML evaluator reads pruned documents, whose messages are
// document.MessageValues: ast.Objects that answer Get from slots and build
// their OPA object when anything else is asked of them, so every type
// switch and member lookup here takes them as they are. OPA's Compare and
// Equal do not know them (an object compared with a view panics), so
// comparing two values of a document goes through compareValues.

// compareValues is ast.Compare for values that may hold views.
func compareValues(a, b ast.Value) int {
	return ast.Compare(document.Plain(a), document.Plain(b))
}

// MessageViewsFor reports whether documents of the format checked under the
// profile should hold their messages as views: not when OPA runs on them (a
// Rego rule applies to them and no gate keeps OPA off), as every view would
// then be built into its object for Rego's input, and the document copied
// with them, which costs more than the objects built at once (the one-rule
// bench pack ran 9% slower).
func (e *Engine) MessageViewsFor(format, profile string) bool {
	if e.rego == nil || !e.regoScope.open(format, profileOf(profile)) {
		return true
	}
	return e.gate.gated > 0 && e.gate.gated == e.gate.packs // OPA runs only where a gate fires
}
