package policy

// MessageViewsFor reports whether documents of the format checked under the
// profile should hold their messages as views: not when OPA's topdown runs
// on them (a Rego rule it evaluates applies to them and no gate keeps OPA
// off), as every view would then be built into its object for topdown's
// input, and the document copied with them, which costs more than the
// objects built at once. The compiled closures read views as they are
// (regoc/views.go): where they evaluate every Rego set that applies to
// the documents (regoProgram.covers), views stay.
func (e *Engine) MessageViewsFor(format, profile string) bool {
	if !e.hasRego || !e.regoScope.open(format, profileOf(profile)) || e.gate.gated(format, profileOf(profile)) {
		return true // no Rego runs, or only where a gate fires
	}
	// Rego runs on these documents: its program is needed
	// anyway, and says whether the closures evaluate every set.
	if prog, err := e.programFor(format, profileOf(profile)); err == nil && prog != nil && prog.covers(format, profileOf(profile)) {
		return true
	}
	return false
}
