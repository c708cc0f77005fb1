package policy

// MessageViewsFor reports whether documents of the format checked under the
// profile should hold their messages as views: not when OPA runs on them (a
// Rego rule applies to them and no gate keeps OPA off), as every view would
// then be built into its object for Rego's input, and the document copied
// with them, which costs more than the objects built at once.
func (e *Engine) MessageViewsFor(format, profile string) bool {
	if !e.hasRego || !e.regoScope.open(format, profileOf(profile)) {
		return true
	}
	return e.gate.gated > 0 && e.gate.gated == e.gate.packs // OPA runs only where a gate fires
}
