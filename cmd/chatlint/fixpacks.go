package main

import (
	"errors"
	"sync"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy"
)

// fixEngines are the compiled packs fix runs, per input format.
type fixEngines struct {
	byFormat map[document.Format]*policy.Engine
	// pools hold evaluators for the engines the runner's workers were not
	// built with (an Evaluator serves one goroutine at a time).
	pools map[*policy.Engine]*sync.Pool
}

func (e *fixEngines) any() *policy.Engine {
	for _, f := range document.Formats {
		if eng := e.byFormat[f]; eng != nil {
			return eng
		}
	}
	return nil
}

// compile compiles the --pack packs for every format, or each format's
// default built-in pack.
func (o *fixOptions) compile(cmd *cobra.Command) (*fixEngines, error) {
	e := &fixEngines{byFormat: map[document.Format]*policy.Engine{}, pools: map[*policy.Engine]*sync.Pool{}}
	po := packOptions{NoBuiltin: true, Packs: o.Packs, Disable: o.Disable, Timeout: o.Timeout}
	if len(o.Packs) > 0 {
		eng, err := po.compile(cmd.Context())
		if err != nil {
			return nil, err
		}
		for _, f := range document.Formats {
			e.byFormat[f] = eng
		}
	} else {
		byPack := map[string]*policy.Engine{}
		for _, f := range document.Formats {
			name := defaultPacks[f]
			if byPack[name] == nil {
				po.Packs = []string{"builtin:" + name}
				eng, err := po.compile(cmd.Context())
				if err != nil {
					return nil, err
				}
				byPack[name] = eng
			}
			e.byFormat[f] = byPack[name]
		}
	}
	for _, eng := range e.byFormat {
		if e.pools[eng] == nil {
			eng := eng
			e.pools[eng] = &sync.Pool{New: func() any { return eng.NewEvaluator() }}
		}
	}
	return e, nil
}

// evaluator returns an evaluator for the format's engine: the worker's own
// when it is that engine's, else one from the pool, with its release.
func (e *fixEngines) evaluator(f document.Format, own *policy.Evaluator, ownEngine *policy.Engine) (*policy.Evaluator, func(), error) {
	eng := e.byFormat[f]
	if eng == nil {
		return nil, nil, errors.New("internal: no engine for format " + string(f))
	}
	if eng == ownEngine {
		return own, func() {}, nil
	}
	ev := e.pools[eng].Get().(*policy.Evaluator)
	return ev, func() { e.pools[eng].Put(ev) }, nil
}
