package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/rule"
)

// fixEngines are the compiled packs fix runs, per input format: the
// --pack packs in the order given (each is a stage of its own), or the
// format's default pack.
type fixEngines struct {
	byFormat map[document.Format][]*policy.Engine
}

func (e *fixEngines) any() *policy.Engine {
	for _, f := range document.Formats {
		if engs := e.byFormat[f]; len(engs) > 0 {
			return engs[0]
		}
	}
	return nil
}

// compile compiles each --pack on its own, or each format's default
// built-in pack.
func (o *fixOptions) compile(cmd *cobra.Command) (*fixEngines, error) {
	e := &fixEngines{byFormat: map[document.Format][]*policy.Engine{}}
	byRef := map[string]*policy.Engine{}
	engine := func(ref string) (*policy.Engine, error) {
		if eng := byRef[ref]; eng != nil {
			return eng, nil
		}
		po := packOptions{NoBuiltin: true, NoConfig: true, Packs: []string{ref}, Disable: o.Disable, Timeout: o.Timeout, disableChecked: true}
		eng, err := po.compile(cmd.Context())
		if err != nil {
			return nil, err
		}
		byRef[ref] = eng
		return eng, nil
	}
	for _, f := range document.Formats {
		for _, ref := range builtin.CleanupRefs(f, o.Packs) {
			eng, err := engine(ref)
			if err != nil {
				return nil, err
			}
			e.byFormat[f] = append(e.byFormat[f], eng)
		}
	}
	// A --disable must name a rule of some pack fix runs.
	all := slices.Clone(lint.CoreRules)
	for _, eng := range byRef {
		all = append(all, eng.AllRules()...)
	}
	slices.SortFunc(all, func(a, b rule.Rule) int { return strings.Compare(a.ID, b.ID) })
	all = slices.CompactFunc(all, func(a, b rule.Rule) bool { return a.ID == b.ID })
	known := map[string]bool{}
	for _, r := range all {
		known[r.ID] = true
	}
	if err := checkDisable(o.Disable, known, all); err != nil {
		return nil, err
	}
	return e, nil
}

// workerEvaluators returns what gives one worker the evaluators of a
// format's engines. An Evaluator serves one goroutine at a time, so each
// worker owns its own, made the first time it meets an engine: a pack
// shared by several formats is evaluated by one evaluator per worker.
func (e *fixEngines) workerEvaluators() func(document.Format) []*policy.Evaluator {
	own := map[*policy.Engine]*policy.Evaluator{}
	byFormat := map[document.Format][]*policy.Evaluator{}
	return func(f document.Format) []*policy.Evaluator {
		if evs, ok := byFormat[f]; ok {
			return evs
		}
		engs := e.byFormat[f]
		evs := make([]*policy.Evaluator, len(engs))
		for i, eng := range engs {
			if own[eng] == nil {
				own[eng] = eng.NewEvaluator()
			}
			evs[i] = own[eng]
		}
		byFormat[f] = evs
		return evs
	}
}
