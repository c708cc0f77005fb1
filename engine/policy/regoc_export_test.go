package policy

// RegoCompiled names the packages an engine evaluates as compiled closures
// (regoc_*.go), for the differential tests.
func RegoCompiled(e *Engine) []string {
	if e.rego == nil || e.rego.regoc == nil {
		return nil
	}
	var out []string
	for _, p := range e.rego.regoc.pkgs {
		out = append(out, p.Path)
	}
	return out
}

// RegoFallbacks counts the documents the compiled closures left to topdown
// after an error.
func RegoFallbacks(e *Engine) int64 {
	if e.rego == nil || e.rego.regoc == nil {
		return 0
	}
	return e.rego.regoc.fallbacks.Load()
}
