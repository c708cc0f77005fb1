package policy

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/rule"
)

// HasDataset reports whether any active dataset rule (rule.ScopeDataset)
// applies under the profile: only then does a run fold its records into a
// dataset document per file, so a run without such rules pays nothing.
func (e *Engine) HasDataset(profile string) bool {
	profile = profileOf(profile)
	for _, r := range e.rules {
		if r.Scope == rule.ScopeDataset && !e.disabled[r.ID] && r.AppliesUnder(profile) {
			return true
		}
	}
	return false
}

// HasDatasetFor reports whether an active dataset rule applies to files of
// the format under the profile: a run folds only those files' records, so
// a rule for one format (the contract's) costs the others nothing.
func (e *Engine) HasDatasetFor(profile, format string) bool {
	profile = profileOf(profile)
	for _, r := range e.rules {
		if r.Scope == rule.ScopeDataset && !e.disabled[r.ID] && r.AppliesUnder(profile) &&
			(len(r.Formats) == 0 || slices.Contains(r.Formats, format)) {
			return true
		}
	}
	return false
}

// EvaluateDataset runs the dataset rules over one file's dataset document
// (its format and profile given, as the document holds them). Its hits name
// lines (Hit.Line) rather than elements.
func (ev *Evaluator) EvaluateDataset(ctx context.Context, format, profile string, doc ast.Object) ([]Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e := ev.e
	profile = profileOf(profile)
	var hits []Hit
	for _, r := range e.dataset {
		if len(r.Formats) > 0 && !slices.Contains(r.Formats, format) {
			continue
		}
		hits = r.Eval(doc, hits)
	}
	prog, err := e.datasetProgramFor(format, profile)
	if err != nil {
		return nil, fmt.Errorf("evaluating dataset rules: %w", err)
	}
	if prog == nil || len(prog.datasetSets) == 0 {
		e.demote(profile, hits)
		return hits, nil
	}
	ev.cancel.reset()
	ev.timer.Reset(ev.timeout)
	hits, err = prog.evalDataset(ctx, &ev.rego, doc, format, profile, &ev.cancel, hits)
	if !ev.timer.Stop() && ev.cancel.Cancelled() {
		return nil, fmt.Errorf("evaluating dataset rules took longer than %s", ev.timeout)
	}
	if len(e.disabled) > 0 {
		hits = slices.DeleteFunc(hits, func(h Hit) bool { return e.disabled[h.Rule] })
	}
	e.demote(profile, hits)
	var bad *OutputError
	if err != nil && !errors.As(err, &bad) {
		return hits, fmt.Errorf("evaluating dataset rules: %w", err)
	}
	return hits, err
}
