package policy

// RegoCompiled names the packages an engine evaluates as compiled closures
// (regoc_*.go), for the differential tests.
func RegoCompiled(e *Engine) []string {
	if e.rego == nil || e.rego.regoc == nil {
		return nil
	}
	var out []string
	for _, p := range e.rego.regoc.pkgs {
		out = append(out, p.path)
	}
	return out
}
