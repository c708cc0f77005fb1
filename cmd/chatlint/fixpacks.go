package main

import (
	"sync"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy"
)

// fixEngines are the compiled packs fix runs, per input format: the
// --pack packs in the order given (each is a stage of its own), or the
// format's default pack.
type fixEngines struct {
	byFormat map[document.Format][]*policy.Engine
	// pools hold evaluators per engine: an Evaluator serves one goroutine
	// at a time, and the workers need the engines of whatever format comes.
	pools map[*policy.Engine]*sync.Pool
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
	e := &fixEngines{byFormat: map[document.Format][]*policy.Engine{}, pools: map[*policy.Engine]*sync.Pool{}}
	byRef := map[string]*policy.Engine{}
	engine := func(ref string) (*policy.Engine, error) {
		if eng := byRef[ref]; eng != nil {
			return eng, nil
		}
		po := packOptions{NoBuiltin: true, NoConfig: true, Packs: []string{ref}, Disable: o.Disable, Timeout: o.Timeout}
		eng, err := po.compile(cmd.Context())
		if err != nil {
			return nil, err
		}
		byRef[ref] = eng
		eng2 := eng
		e.pools[eng] = &sync.Pool{New: func() any { return eng2.NewEvaluator() }}
		return eng, nil
	}
	for _, f := range document.Formats {
		refs := o.Packs
		if len(refs) == 0 {
			refs = []string{builtin.DefaultCleanup(f)}
		}
		for _, ref := range refs {
			eng, err := engine(ref)
			if err != nil {
				return nil, err
			}
			e.byFormat[f] = append(e.byFormat[f], eng)
		}
	}
	return e, nil
}

// evaluators returns an evaluator for each of the format's engines, and
// the function that gives them back.
func (e *fixEngines) evaluators(f document.Format) ([]*policy.Evaluator, func()) {
	engs := e.byFormat[f]
	evs := make([]*policy.Evaluator, len(engs))
	for i, eng := range engs {
		evs[i] = e.pools[eng].Get().(*policy.Evaluator)
	}
	return evs, func() {
		for i, eng := range engs {
			e.pools[eng].Put(evs[i])
		}
	}
}
