package policy

import (
	"cmp"
	"context"
	"slices"
	"sort"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/chatlint/chatlint/engine/policy/regoc"
)

// regoRun is one worker's state for evaluating the Rego sets: a topdown
// query per set, built on first use and reused from document to document,
// and the buffer the sets' elements are gathered in. An Evaluator owns one;
// it is not safe for concurrent use.
type regoRun struct {
	queries []*topdown.Query // by index in regoProgram.sets; dataset queries after them
	items   []regoItem
	cache   docCache // the values of the rules evaluated for the current document
	// collect gathers the elements of set cur from a query's result.
	collect func(topdown.QueryResult) error
	cur     *regoSet
	input   ast.Term
	// open says which record sets apply to documents of format and
	// profile (regoProgram.openSets), kept while they stay the same.
	open            []bool
	format, profile string
	// pkgs are the compiled packages evaluated there (regoProgram.scoped),
	// kept with open.
	pkgs []*regoc.Package
	// watch is the memory watchdog's hold on this evaluation, nil when it
	// is not watched (Evaluator.run): the watch starts when OPA does.
	watch *memWatch
	// extend raises the time limit of the document being evaluated to
	// that of the given work, where OPA reads more of it than the rules
	// before (Document.ForRego); nil outside an Evaluator.
	extend func(work int)
	// progs keeps the queries of each program the worker evaluated, those
	// of prog in queries (runPrograms.use).
	progs runPrograms
}

// collectSet gathers what `some f in <set>` enumerated: a set's or an
// array's elements, an object's values.
func (run *regoRun) collectSet(qr topdown.QueryResult) error {
	s := run.cur
	t := qr[s.out]
	if t == nil {
		return nil
	}
	switch v := t.Value.(type) {
	case ast.Set:
		for _, e := range v.Slice() {
			run.items = append(run.items, regoItem{s, e.Value})
		}
	case *ast.Array:
		for i := range v.Len() {
			run.items = append(run.items, regoItem{s, v.Elem(i).Value})
		}
	case ast.Object:
		v.Foreach(func(_, e *ast.Term) { run.items = append(run.items, regoItem{s, e.Value}) })
	}
	return nil
}

// drop lets go of the document: the worker must not keep its values alive.
func (run *regoRun) drop() {
	clear(run.items)
	run.items = run.items[:0]
	run.cache.reset()
	run.cur, run.input.Value = nil, nil // the queries hold the input term, not the value
}

// noRequestMetadata is the caller's metadata topdown hands builtins; none
// of chatlint's reads it, and an evaluation without one made a map.
var noRequestMetadata = map[string]any{}

// regoItem is one element of one set: what the former gather module's
// `out` held as [pack, set, element].
type regoItem struct {
	set *regoSet
	v   ast.Value
}

// query returns the worker's query of set i of the program, set up for one
// evaluation. A traced evaluation gets a query of its own: tracers are only
// ever added to a query, and the traced run is rare.
func (p *regoProgram) query(run *regoRun, i int, s *regoSet, input *ast.Term, now time.Time, cancel topdown.Cancel, tracer topdown.QueryTracer) *topdown.Query {
	var q *topdown.Query
	if tracer == nil {
		if len(run.queries) < len(p.sets)+len(p.datasetSets) {
			run.queries = make([]*topdown.Query, len(p.sets)+len(p.datasetSets))
		}
		q = run.queries[i]
	}
	if q == nil {
		// The options rego.PreparedEvalQuery.Eval gave: indexing and early
		// exit on, builtin errors not strict, no print hook, no metrics.
		q = topdown.NewQuery(s.query).
			WithQueryCompiler(s.qc).
			WithCompiler(p.compiler).
			WithStore(p.store).
			WithTransaction(p.txn).
			WithMetrics(noMetrics).
			WithIndexing(true).
			WithEarlyExit(true).
			WithStrictBuiltinErrors(false).
			WithBaseCache(noBaseCache{}).
			WithRequestMetadata(noRequestMetadata)
		if tracer != nil {
			q = q.WithQueryTracer(tracer)
		} else {
			run.queries[i] = q
		}
	}
	// A query reused keeps the time of its first evaluation unless told:
	// each document's evaluation gets its own, as a new rego evaluation did.
	return q.WithInput(input).WithCancel(cancel).WithTime(now).WithVirtualCache(&run.cache)
}

// evalSets evaluates the sets over one document: each set's query in
// order, stopping at the first error, then reads every element as a
// finding (or an action, from the actions set) of the set's package's pack.
// The elements are read in the order of the former gather set — by pack,
// set name, then element — and an element that two packages of one pack
// both produce counts once, as it did there. records says the sets are a
// record's (p.sets), not the dataset document's: base alone cannot tell,
// as the dataset sets start at 0 when no package has record sets.
func (p *regoProgram) evalSets(ctx context.Context, run *regoRun, sets []regoSet, base int, records bool, input regoInput, format, profile string, cancel topdown.Cancel, tracer topdown.QueryTracer, hits []Hit, acts []Action) ([]Hit, []Action, error) {
	if run == nil {
		run = &regoRun{}
	}
	run.progs.use(run, p)
	run.items = run.items[:0]
	run.cache.reset()
	defer run.drop()
	if run.collect == nil {
		run.collect = run.collectSet // one method value for the worker's life
	}
	in := &run.input // the worker's input term, given the plain document when topdown runs
	now := time.Now()
	var open []bool
	if records {
		open = p.openSets(run, sets, format, profile)
	}
	// The packages compiled as closures first (record sets, untraced: a
	// traced run names the rule, which only topdown does), those whose pack
	// applies here (run.pkgs); topdown then skips their sets, unless the
	// closures failed on this document.
	closures := false
	if p.regoc != nil && tracer == nil && records {
		ok, err := p.regoc.collect(ctx, run, run.pkgs, input.views, cancel)
		if err != nil {
			return hits, acts, err
		}
		closures = ok
	}
	for i := range sets {
		if closures && sets[i].compiled || open != nil && !open[i] {
			continue
		}
		if in.Value == nil {
			in.Value = input.plain()
		}
		run.cur = &sets[i]
		q := p.query(run, base+i, run.cur, in, now, cancel, tracer)
		if err := q.Iter(ctx, run.collect); err != nil {
			return hits, acts, err
		}
	}
	items := run.items
	if len(items) > 1 {
		sort.SliceStable(items, func(i, j int) bool { return compareItems(items[i], items[j]) < 0 })
		items = slices.CompactFunc(items, func(a, b regoItem) bool { return compareItems(a, b) == 0 })
	}
	var problems []string
	for _, it := range items {
		if it.set.name == actionSet {
			a, err := p.actionFromValue(it.set.pack, it.v)
			if err != nil {
				problems = append(problems, err.Error())
				continue
			}
			acts = append(acts, a)
			continue
		}
		h, err := p.hitFromValue(it.set.pack, it.set.sev, it.v)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		if r, ok := p.rules[h.Rule]; ok && (len(r.Formats) > 0 && !slices.Contains(r.Formats, format) || !r.AppliesUnder(profile)) {
			continue // outside the rule's declared formats or profiles
		}
		hits = append(hits, h)
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return hits, acts, &OutputError{Problems: problems}
	}
	return hits, acts, nil
}

// compareItems orders elements as the gather set ordered its
// [pack, set, element] arrays.
func compareItems(a, b regoItem) int {
	return cmp.Or(cmp.Compare(a.set.pack, b.set.pack), cmp.Compare(a.set.name, b.set.name), ast.Compare(a.v, b.v))
}
