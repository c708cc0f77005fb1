package policy

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/policy/builtins"
)

// The evaluation of the Rego packs as it was before the sets were queried
// one by one through topdown: the gather module (gatherModule, still
// compiled for its type check) unions [pack, set, finding] over every
// package × set, one rego.PreparedEvalQuery evaluates
// it, and the result set, converted to Go values, is read by
// hitFromObject/actionFromObject. Kept here as the oracle the direct path
// is compared with (rego_oracle_test.go).

// RegoResult is what one evaluation of the Rego step gave.
type RegoResult struct {
	Hits    []Hit
	Actions []Action
	Err     string
}

// RegoOracle evaluates an engine's Rego packs by both paths.
type RegoOracle struct {
	e              *Engine
	query, dataset rego.PreparedEvalQuery
	run            regoRun // the new path's worker state, reused across documents as a worker reuses it
}

// NewRegoOracle compiles the gather module over the packs the engine was
// compiled from; nil when they hold no Rego.
func NewRegoOracle(ctx context.Context, e *Engine, packs []*Pack) (*RegoOracle, error) {
	if e.rego == nil {
		return nil, nil
	}
	modules := map[string]*ast.Module{}
	pkgPack := map[string]string{}
	for _, p := range packs {
		mods, _, pkgs, err := parseRego(p)
		if err != nil {
			return nil, err
		}
		for k, m := range mods {
			modules[k] = m
		}
		for _, pkg := range pkgs {
			if _, dup := pkgPack[pkg]; !dup {
				pkgPack[pkg] = p.Name
			}
		}
	}
	gather, err := gatherModule(pkgPack) // the module the old path evaluated
	if err != nil {
		return nil, err
	}
	modules[gatherFile] = gather
	compiler := ast.NewCompiler().WithCapabilities(builtins.Capabilities()).WithEnablePrintStatements(false)
	if compiler.Compile(modules); compiler.Failed() {
		return nil, compileErrors(compiler.Errors)
	}
	o := &RegoOracle{e: e}
	if o.query, err = rego.New(rego.Compiler(compiler), rego.Query("data.chatlint_engine.out")).PrepareForEval(ctx); err != nil {
		return nil, err
	}
	if o.dataset, err = rego.New(rego.Compiler(compiler), rego.Query("data.chatlint_engine.dataset_out")).PrepareForEval(ctx); err != nil {
		return nil, err
	}
	return o, nil
}

// RegoSets names the sets an engine's Rego step queries, in order:
// package.set, comma-separated.
func RegoSets(e *Engine) (record, dataset string) {
	if e.rego == nil {
		return "", ""
	}
	return setsString(e.rego.sets), setsString(e.rego.datasetSets)
}

func setsString(sets []regoSet) string {
	names := make([]string, len(sets))
	for i, s := range sets {
		names[i] = strings.TrimPrefix(s.pkg, "data.") + "." + s.name
	}
	return strings.Join(names, ", ")
}

// Old evaluates one document by the gather module.
func (o *RegoOracle) Old(ctx context.Context, doc *document.Document) RegoResult {
	hits, acts, err := o.evalQuery(ctx, o.query, setSeverity, true, doc.Value, string(doc.Format), profileOf(doc.Profile))
	return result(hits, acts, err)
}

// Scoped reports whether the direct path may skip every finding set on
// doc: no rule of a pack applies to its format and profile. The gather
// module evaluates such a pack too, so a pack that errs where it does not
// apply errs there alone; the direct path, like topdown's sets before it,
// does not run it.
func (o *RegoOracle) Scoped(doc *document.Document) bool {
	p := o.e.rego
	for _, s := range p.sets {
		if s.name != actionSet && p.packOpen(s.pack, string(doc.Format), profileOf(doc.Profile)) {
			return false
		}
	}
	return true
}

// New evaluates one document by the sets' queries, traced or not.
func (o *RegoOracle) New(ctx context.Context, doc *document.Document, traced bool) RegoResult {
	var tracer topdown.QueryTracer
	if traced {
		tracer = &ruleTracer{}
	}
	var cancel resettableCancel
	hits, acts, err := o.e.rego.eval(ctx, &o.run, regoInput{views: doc.Value, doc: doc}, string(doc.Format), profileOf(doc.Profile), &cancel, tracer, nil, nil)
	return result(hits, acts, err)
}

// OldDataset and NewDataset evaluate the dataset sets over a dataset
// document.
func (o *RegoOracle) OldDataset(ctx context.Context, format, profile string, doc ast.Object) RegoResult {
	hits, _, err := o.evalQuery(ctx, o.dataset, datasetSets, false, doc, format, profileOf(profile))
	return result(hits, nil, err)
}

func (o *RegoOracle) NewDataset(ctx context.Context, format, profile string, doc ast.Object) RegoResult {
	var cancel resettableCancel
	hits, err := o.e.rego.evalDataset(ctx, &o.run, doc, format, profileOf(profile), &cancel, nil)
	return result(hits, nil, err)
}

func result(hits []Hit, acts []Action, err error) RegoResult {
	r := RegoResult{Hits: hits, Actions: acts}
	if err != nil {
		r.Err = err.Error()
	}
	return r
}

// evalQuery is the former regoProgram.evalQuery.
func (o *RegoOracle) evalQuery(ctx context.Context, query rego.PreparedEvalQuery, sets map[string]finding.Severity, records bool, input ast.Value, format, profile string) ([]Hit, []Action, error) {
	p := o.e.rego
	var cancel resettableCancel
	var hits []Hit
	var acts []Action
	rs, err := query.Eval(ctx, rego.EvalParsedInput(input), rego.EvalMetrics(noMetrics), rego.EvalExternalCancel(&cancel))
	if err != nil {
		return hits, acts, err
	}
	if len(rs) == 0 || len(rs[0].Expressions) == 0 {
		return hits, acts, nil
	}
	set, _ := rs[0].Expressions[0].Value.([]any)
	var problems []string
	for _, item := range set {
		t, _ := item.([]any)
		if len(t) != 3 {
			continue
		}
		pack, _ := t[0].(string)
		if t[1] == actionSet {
			a, err := actionFromObject(pack, t[2])
			if err != nil {
				problems = append(problems, err.Error())
				continue
			}
			acts = append(acts, a)
			continue
		}
		if records && !p.packOpen(pack, format, profile) {
			continue // the direct path evaluates no record finding set of a pack out of scope (openSets)
		}
		sev := sets[t[1].(string)]
		h, err := p.hitFromObject(pack, sev, t[2])
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		if r, ok := p.rules[h.Rule]; ok && (len(r.Formats) > 0 && !slices.Contains(r.Formats, format) || !r.AppliesUnder(profile)) {
			continue
		}
		hits = append(hits, h)
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return hits, acts, &OutputError{Problems: problems}
	}
	return hits, acts, nil
}
