package policy

import (
	"slices"

	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/rule"
)

// A provider profile (Profile.Provider) is that provider's verdict: a file
// fails under it exactly when the provider's own validator or upload would
// refuse it. The rules of chatlint that run under every profile go further
// than any provider (undeclared tools, argument schemas, pairing by id);
// under a provider profile they stay on, as warnings, unless the profile
// names them among its Checks. verdict.go holds that one decision, for
// check (the hits) and rules (the listing) alike.

// demotions computes, per provider profile, the rules whose errors are
// warnings under it: those that do not declare the profile and that the
// profile does not name in its Checks.
func demotions(profiles []Profile, rules []rule.Rule) map[string]map[string]bool {
	var out map[string]map[string]bool
	for _, p := range profiles {
		if !p.Provider {
			continue
		}
		set := map[string]bool{}
		for _, r := range rules {
			if len(r.Profiles) == 0 && !slices.Contains(p.Checks, r.ID) {
				set[r.ID] = true
			}
		}
		if out == nil {
			out = map[string]map[string]bool{}
		}
		out[p.Name] = set
	}
	return out
}

// mergeProfile adds a pack's profile to the engine's: the first
// declaration names and describes it; a provider flag or checks from any
// pack count.
func mergeProfile(profiles []Profile, pr Profile) []Profile {
	i := slices.IndexFunc(profiles, func(q Profile) bool { return q.Name == pr.Name })
	if i < 0 {
		pr.Checks = slices.Clone(pr.Checks)
		return append(profiles, pr)
	}
	profiles[i].Provider = profiles[i].Provider || pr.Provider
	for _, c := range pr.Checks {
		if !slices.Contains(profiles[i].Checks, c) {
			profiles[i].Checks = append(profiles[i].Checks, c)
		}
	}
	return profiles
}

// SeverityUnder is the severity a rule's findings have under a profile:
// an error of chatlint's own is a warning under a provider profile.
func (e *Engine) SeverityUnder(profile string, r rule.Rule) finding.Severity {
	if r.Severity == finding.Error && e.demoted[profileOf(profile)][r.ID] {
		return finding.Warning
	}
	return r.Severity
}

// demote lowers the errors of the rules demoted under the profile to
// warnings, in place.
func (e *Engine) demote(profile string, hits []Hit) {
	set := e.demoted[profileOf(profile)]
	if len(set) == 0 {
		return
	}
	for i := range hits {
		if hits[i].Severity == finding.Error && set[hits[i].Rule] {
			hits[i].Severity = finding.Warning
		}
	}
}

// severities lists the profiles under which the rule's findings have
// another severity than its own (Rule.Severities), nil when none.
func (e *Engine) severities(r rule.Rule) map[string]finding.Severity {
	var out map[string]finding.Severity
	for _, p := range e.profiles {
		if s := e.SeverityUnder(p.Name, r); s != r.Severity {
			if out == nil {
				out = map[string]finding.Severity{}
			}
			out[p.Name] = s
		}
	}
	return out
}
