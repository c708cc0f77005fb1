package policy

import "github.com/chatlint/chatlint/engine/document"

// NeedsRego reports whether OPA runs on doc (its packs' gates), for the
// tests of policy_test.
func (e *Engine) NeedsRego(doc *document.Document) bool {
	return e.rego != nil && e.regoScope.open(string(doc.Format), profileOf(doc.Profile)) && e.needsRego(doc, nil)
}
