package builtins

import (
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"
)

// DeniedBuiltins lists, sorted, the OPA builtins packs may not call: those
// of this OPA version that Capabilities leaves out. docs/ci.md's sandbox
// list is generated from it, so the docs and the sandbox cannot disagree.
func DeniedBuiltins() []string {
	allowed := map[string]bool{}
	for _, b := range Capabilities().Builtins {
		allowed[b.Name] = true
	}
	var out []string
	for _, b := range ast.CapabilitiesForThisVersion().Builtins {
		if !allowed[b.Name] && !b.IsDeprecated() {
			out = append(out, b.Name)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
