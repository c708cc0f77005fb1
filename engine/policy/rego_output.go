package policy

import (
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/finding"
)

// The elements of the finding and action sets come from topdown or the
// compiled closures as OPA values. They are converted to Go as rego.Eval
// converted them and read by hitFromObject and actionFromObject, the one
// reader of each, which words every error: a document has few findings, so
// the conversion is off the hot path.

// hitFromValue reads a finding a Rego rule produced; see hitFromObject.
func (p *regoProgram) hitFromValue(pack string, sev finding.Severity, v ast.Value) (Hit, error) {
	g, err := ast.JSON(v)
	if err != nil {
		return Hit{}, err
	}
	return p.hitFromObject(pack, sev, g)
}

// actionFromValue reads an action a Rego rule produced; see
// actionFromObject.
func (p *regoProgram) actionFromValue(pack string, v ast.Value) (Action, error) {
	g, err := ast.JSON(v)
	if err != nil {
		return Action{}, err
	}
	return actionFromObject(pack, g)
}
