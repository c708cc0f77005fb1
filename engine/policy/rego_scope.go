package policy

import (
	"slices"

	"github.com/chatlint/chatlint/engine/rule"
)

// regoScope decides whether a document is given to OPA at all: only when some
// Rego rule of the active packs applies to its format and its profile. Every
// finding a rule makes outside its declared formats (custom.formats) or
// profiles (custom.profiles) is dropped anyway, so a document no rule applies
// to would cost OPA's evaluation for nothing: with the finetune pack, whose
// Rego rules all name provider profiles, a default-profile run calls OPA on
// no document and builds no lookup for it (ReadsLookupUnder). Each pack has
// a scope of its own too (Engine.packScopes): where OPA runs, a pack none of
// whose rules applies to the document is not evaluated (openSets).
type regoScope struct {
	// all is set when a pack has Rego modules but declares no rule in them:
	// nothing says where they apply, so they apply everywhere.
	all   bool
	rules []scopeRule
}

type scopeRule struct{ formats, profiles []string }

// add records a Rego rule. A dataset rule is evaluated on the dataset
// document only (EvaluateDataset), never on a record's.
func (g *regoScope) add(r rule.Rule) {
	if r.Scope == rule.ScopeDataset {
		return
	}
	g.rules = append(g.rules, scopeRule{formats: r.Formats, profiles: r.Profiles})
}

// open reports whether a document of the format, under the profile, may get
// a finding from some Rego rule.
func (g *regoScope) open(format, profile string) bool {
	if g.all {
		return true
	}
	for _, r := range g.rules {
		if (len(r.formats) == 0 || slices.Contains(r.formats, format)) &&
			(len(r.profiles) == 0 || slices.Contains(r.profiles, profile)) {
			return true
		}
	}
	return false
}

// packScope returns the scope of the named pack's Rego rules, made empty
// on first use.
func (e *Engine) packScope(pack string) *regoScope {
	if e.packScopes == nil {
		e.packScopes = map[string]*regoScope{}
	}
	g := e.packScopes[pack]
	if g == nil {
		g = &regoScope{}
		e.packScopes[pack] = g
	}
	return g
}

// openSets says, for each record set, whether its pack's Rego may give a
// document of the format, under the profile, a finding: a finding set
// whose pack declares no rule that applies there is not evaluated, as OPA
// is not run at all on a document no rule applies to (a contract record,
// checked with the default packs, is not given to the claude-code pack's
// Rego). Action sets are always evaluated where OPA runs: an action is not
// dropped outside its rule's formats as a finding is. The answer is kept in
// run while documents keep their format and profile.
func (p *regoProgram) openSets(run *regoRun, sets []regoSet, format, profile string) []bool {
	if run.open != nil && len(run.open) == len(sets) && run.format == format && run.profile == profile {
		return run.open
	}
	open := make([]bool, len(sets))
	for i := range sets {
		open[i] = sets[i].name == actionSet || p.packOpen(sets[i].pack, format, profile)
	}
	run.open, run.format, run.profile = open, format, profile
	run.pkgs = nil
	if p.regoc != nil {
		run.pkgs = p.scoped(format, profile)
	}
	return open
}

// packOpen reports whether a rule of the pack applies to documents of the
// format under the profile; a pack of unknown scope is open everywhere.
func (p *regoProgram) packOpen(pack, format, profile string) bool {
	g := p.scopes[pack]
	return g == nil || g.open(format, profile)
}

// openUnder reports whether OPA may run on some document under the profile.
func (g *regoScope) openUnder(profile string) bool {
	if g.all {
		return true
	}
	for _, r := range g.rules {
		if len(r.profiles) == 0 || slices.Contains(r.profiles, profile) {
			return true
		}
	}
	return false
}

// ReadsLookupUnder reports whether an active rule may read the document's
// lookup member in a run under the profile: a YAML rule that names it, or a
// Rego rule that may read it when OPA runs at all under that profile.
func (e *Engine) ReadsLookupUnder(profile string) bool {
	return e.yamlReadsLookup || e.regoReadsLookup && e.hasRego && e.regoScope.openUnder(profileOf(profile))
}

// ReadsLookupFor reports whether an active rule may read the lookup member
// of a document of the format under the profile. OPA runs on a document
// only when a Rego rule applies to its format and profile (evaluate), so a
// lookup that only Rego reads is never read where none applies: a chat
// file checked with the default packs builds none, though the claude-code
// pack's Rego reads it (a tenth of building a chat document).
func (e *Engine) ReadsLookupFor(format, profile string) bool {
	return e.yamlReadsLookup || e.regoReadsLookup && e.hasRego && e.regoScope.open(format, profileOf(profile))
}
