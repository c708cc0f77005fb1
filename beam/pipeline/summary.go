package pipeline

import (
	"cmp"
	"encoding/json"
	"slices"

	"github.com/chatlint/chatlint/engine/finding"
)

// Tally is one thing the summary counts: a file read with its records, or
// one finding of a rule at a severity.
type Tally struct {
	Files, Records int
	// Warnings counts what the summary warns of beside findings: an empty
	// input.
	Warnings       int
	Rule, Severity string
	Findings       int
	// With --fix: a document fixed (or left as it was), whether it changed
	// or could not be fixed, the pieces it dropped; or the actions of one
	// rule.
	Documents, Changed, Unfixed, Dropped int
	Action                               string
	Actions                              int
}

// Summary is what the job saw: the counts of `chatlint check`'s summary and
// the findings per rule and severity.
type Summary struct {
	Files    int         `json:"files"`
	Records  int         `json:"records"`
	Errors   int         `json:"errors"`
	Warnings int         `json:"warnings"`
	Infos    int         `json:"infos"`
	Rules    []RuleCount `json:"rules"`
	// Fix is what a --fix job did; with --fix, Errors, Warnings, Infos and
	// Rules count its notes.
	Fix FixSummary `json:"fix"`
}

// FixSummary counts what a --fix job did: documents (a record, or a
// session file) fixed or left as they were, pieces dropped to the rejects,
// and the actions applied per rule.
type FixSummary struct {
	Documents int           `json:"documents"`
	Changed   int           `json:"changed"`
	Unfixed   int           `json:"unfixed"`
	Dropped   int           `json:"dropped"`
	Actions   []ActionCount `json:"actions"`
}

// ActionCount is the number of actions one rule had applied.
type ActionCount struct {
	Rule    string `json:"rule"`
	Actions int    `json:"actions"`
}

// RuleCount is the number of findings of one rule at one severity (a rule
// can report at several, when a finding is downgraded).
type RuleCount struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Findings int    `json:"findings"`
}

// Worst returns the highest severity counted, or 0 when there is none.
func (s Summary) Worst() finding.Severity {
	return finding.Summary{Errors: s.Errors, Warnings: s.Warnings, Infos: s.Infos}.Worst()
}

// SummaryFn combines tallies into one Summary, written as JSON. Partial
// summaries are built where the tallies are made and merged, so no worker
// sees every finding.
type SummaryFn struct {
	// Fix writes the "fix" member: the job fixes records.
	Fix bool
}

// checkSummary is a Summary without its "fix" member: the outer field,
// always nil, hides the embedded one.
type checkSummary struct {
	Summary
	Fix *FixSummary `json:"fix,omitempty"`
}

// CreateAccumulator starts an empty summary.
func (SummaryFn) CreateAccumulator() Summary { return Summary{} }

// AddInput counts one tally.
func (SummaryFn) AddInput(s Summary, t Tally) Summary {
	s.Files += t.Files
	s.Records += t.Records
	s.Warnings += t.Warnings
	s.Fix.Documents += t.Documents
	s.Fix.Changed += t.Changed
	s.Fix.Unfixed += t.Unfixed
	s.Fix.Dropped += t.Dropped
	if t.Actions > 0 {
		s.Fix.Actions = addAction(s.Fix.Actions, ActionCount{Rule: t.Action, Actions: t.Actions})
	}
	if t.Findings == 0 {
		return s
	}
	switch t.Severity {
	case finding.Error.String():
		s.Errors += t.Findings
	case finding.Warning.String():
		s.Warnings += t.Findings
	case finding.Info.String():
		s.Infos += t.Findings
	}
	s.Rules = addRule(s.Rules, RuleCount{Rule: t.Rule, Severity: t.Severity, Findings: t.Findings})
	return s
}

// MergeAccumulators adds two partial summaries. It leaves both as they
// were (AddInput, called far more often, updates its accumulator in place,
// which Beam allows).
func (SummaryFn) MergeAccumulators(a, b Summary) Summary {
	a.Rules = slices.Clone(a.Rules)
	a.Files += b.Files
	a.Records += b.Records
	a.Errors += b.Errors
	a.Warnings += b.Warnings
	a.Infos += b.Infos
	for _, rc := range b.Rules {
		a.Rules = addRule(a.Rules, rc)
	}
	a.Fix.Actions = slices.Clone(a.Fix.Actions)
	a.Fix.Documents += b.Fix.Documents
	a.Fix.Changed += b.Fix.Changed
	a.Fix.Unfixed += b.Fix.Unfixed
	a.Fix.Dropped += b.Fix.Dropped
	for _, ac := range b.Fix.Actions {
		a.Fix.Actions = addAction(a.Fix.Actions, ac)
	}
	return a
}

// ExtractOutput writes the summary as one line of JSON, rules sorted. A
// check job's summary has no "fix" member.
func (fn SummaryFn) ExtractOutput(s Summary) string {
	s.Rules = slices.Clone(s.Rules)
	if s.Rules == nil {
		s.Rules = []RuleCount{}
	}
	slices.SortFunc(s.Rules, func(a, b RuleCount) int {
		return cmp.Or(cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Severity, b.Severity))
	})
	s.Fix.Actions = slices.Clone(s.Fix.Actions)
	if s.Fix.Actions == nil {
		s.Fix.Actions = []ActionCount{}
	}
	slices.SortFunc(s.Fix.Actions, func(a, b ActionCount) int { return cmp.Compare(a.Rule, b.Rule) })
	out := any(s)
	if !fn.Fix {
		out = checkSummary{Summary: s}
	}
	b, err := json.Marshal(out)
	if err != nil { // strings and numbers only
		panic(err)
	}
	return string(b)
}

// addRule adds rc to the count of its rule and severity. There are a few
// dozen rules, so a slice scanned in place beats a map, and encodes simply.
func addRule(rules []RuleCount, rc RuleCount) []RuleCount {
	for i := range rules {
		if rules[i].Rule == rc.Rule && rules[i].Severity == rc.Severity {
			rules[i].Findings += rc.Findings
			return rules
		}
	}
	return append(rules, rc)
}

// addAction adds ac to the count of its rule.
func addAction(actions []ActionCount, ac ActionCount) []ActionCount {
	for i := range actions {
		if actions[i].Rule == ac.Rule {
			actions[i].Actions += ac.Actions
			return actions
		}
	}
	return append(actions, ac)
}
