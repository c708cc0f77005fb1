// Package rule describes rules: the metadata every pack declares for each of
// its rules and every output format may print (SARIF, for one, lists the
// rules of a run). It depends on nothing but severities, so report writers
// can use it without the policy engine.
package rule

import "github.com/chatlint/chatlint/engine/finding"

// Rule describes one rule of a pack.
type Rule struct {
	ID          string           `json:"id"`
	Title       string           `json:"title,omitempty"`
	Severity    finding.Severity `json:"severity"`
	Pack        string           `json:"pack"`
	Kind        string           `json:"kind"` // "rego", "yaml" or "go"
	Description string           `json:"description"`
	// Example is a record that breaks the rule; Fix says how to mend the data.
	Example string `json:"example,omitempty"`
	Fix     string `json:"fix,omitempty"`
	// Formats are the input formats the rule applies to; empty means every
	// format. Declared by the rule (YAML formats, Rego custom.formats).
	Formats []string `json:"formats,omitempty"`
	// Profiles are the rule profiles the rule applies under; empty means
	// every profile. Declared by the rule (YAML profiles, Rego
	// custom.profiles); a finding under another profile is dropped.
	Profiles []string `json:"profiles,omitempty"`
	// Scope is "dataset" for a rule judging a whole file (evaluated once
	// per file over the dataset document), "" for a rule over one record's
	// document.
	Scope string `json:"scope,omitempty"`
	// Source is the file:line where the rule is declared.
	Source string `json:"source"`
	// Refs name where a rule that implements someone else's check comes
	// from: a provider's documentation (URL) or validator (repository,
	// path and commit). Declared by the rule (YAML refs, Rego custom.refs).
	Refs []string `json:"refs,omitempty"`
	// Severities are the profiles under which the rule's findings have
	// another severity than Severity (a check of chatlint's own is a
	// warning under a provider profile); filled by the engine.
	Severities map[string]finding.Severity `json:"severities,omitempty"`
	// Repairs, on a cleanup rule, are the ids of the checks whose findings
	// the rule's pack removes with it: after fix with the pack, check reports
	// none of them. Declared by the rule (YAML repairs, Rego custom.repairs).
	Repairs []string `json:"repairs,omitempty"`
	// Modes, on a cleanup rule, are the tool-call representations
	// ("inline", "structured") it acts in, so that its Repairs hold there;
	// empty means both. Declared by the rule (Rego custom.modes, YAML mode).
	Modes []string `json:"modes,omitempty"`
	// FixedBy, on a check, names the cleanup rules that repair it, as
	// "pack/rule"; filled from the cleanup packs' Repairs by commands that
	// list rules.
	FixedBy []string `json:"fixed_by,omitempty"`
}

// ScopeDataset is the Scope of a rule over a file's dataset document.
const ScopeDataset = "dataset"

// AppliesUnder reports whether the rule runs under the profile.
func (r Rule) AppliesUnder(profile string) bool {
	if len(r.Profiles) == 0 {
		return true
	}
	for _, p := range r.Profiles {
		if p == profile {
			return true
		}
	}
	return false
}
