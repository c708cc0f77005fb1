package fix

import (
	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy"
)

// Plan is how cleanup packs are staged: which pack each stage compiles and
// which stages run on each input format, in order. It holds no compiled
// engine, so a distributed job can carry it (with the packs' sources) and
// compile on its workers.
type Plan struct {
	// Refs are the stages' pack references, each once, in the order first
	// met: stage i compiles Refs[i] (with the packs it extends).
	Refs []string
	// ByFormat lists, per input format, the stages run on it, in order.
	ByFormat map[document.Format][]int
}

// CleanupPlan stages the cleanup packs `chatlint fix` and `chatlint-beam
// --fix` run: each pack named (--pack) is a stage of its own, run on every
// format in the order given; with none named, each format gets its default
// stages (builtin.CleanupRefs). A pack several formats run is one stage.
func CleanupPlan(packs []string) Plan {
	p := Plan{ByFormat: map[document.Format][]int{}}
	stage := map[string]int{}
	for _, f := range document.Formats {
		for _, ref := range builtin.CleanupRefs(f, packs) {
			i, ok := stage[ref]
			if !ok {
				i = len(p.Refs)
				stage[ref] = i
				p.Refs = append(p.Refs, ref)
			}
			p.ByFormat[f] = append(p.ByFormat[f], i)
		}
	}
	return p
}

// Compile compiles each stage once, in order, with compile (which loads
// and compiles the stage's pack as its caller's options say).
func (p Plan) Compile(compile func(stage int, ref string) (*policy.Engine, error)) (*Stages, error) {
	s := &Stages{engines: make([]*policy.Engine, len(p.Refs)), byFormat: p.ByFormat}
	for i, ref := range p.Refs {
		eng, err := compile(i, ref)
		if err != nil {
			return nil, err
		}
		s.engines[i] = eng
	}
	return s, nil
}

// Stages are the compiled cleanup packs of a run, per input format in the
// order they run. An engine is safe for concurrent use; each worker takes
// its evaluators with Evaluators.
type Stages struct {
	engines  []*policy.Engine
	byFormat map[document.Format][]int
}

// OnFormat returns stages running engs, in order, on files of format f
// only (convert's cleanup of its chat records).
func OnFormat(f document.Format, engs ...*policy.Engine) *Stages {
	idx := make([]int, len(engs))
	for i := range idx {
		idx[i] = i
	}
	return &Stages{engines: engs, byFormat: map[document.Format][]int{f: idx}}
}

// Engines returns each stage's engine, in stage order.
func (s *Stages) Engines() []*policy.Engine { return s.engines }

// Any returns the engine of the first format (in document.Formats order)
// that has a stage, or nil when none has.
func (s *Stages) Any() *policy.Engine {
	for _, f := range document.Formats {
		if idx := s.byFormat[f]; len(idx) > 0 {
			return s.engines[idx[0]]
		}
	}
	return nil
}

// Evaluators returns one worker's evaluators. An Evaluator serves one
// goroutine at a time, so each worker owns its own, made the first time it
// meets a stage: a stage shared by several formats has one evaluator per
// worker.
func (s *Stages) Evaluators() *Evaluators {
	return &Evaluators{s: s, own: make([]*policy.Evaluator, len(s.engines)), byFormat: map[document.Format][]*policy.Evaluator{},
		docs: map[document.Format]document.Options{}}
}

// Evaluators are one worker's evaluators of the stages. Not safe for
// concurrent use.
type Evaluators struct {
	s        *Stages
	own      []*policy.Evaluator
	byFormat map[document.Format][]*policy.Evaluator
	docs     map[document.Format]document.Options
}

// applierReads are the members of a document the applier reads (readDoc):
// where each message, call and entry lives, and what pairs a result with
// its call.
var applierReads = [][]string{
	{"messages", "*", "line"}, {"messages", "*", "path"}, {"messages", "*", "lines"},
	{"messages", "*", "role"}, {"messages", "*", "tool_call_id"},
	{"messages", "*", "tool_calls", "*", "id"}, {"messages", "*", "tool_calls", "*", "path"},
	{"messages", "*", "tool_calls", "*", "line"},
	{"entries", "*", "line"}, {"entries", "*", "on_chain"},
}

// Document returns the options the documents of format f are built with
// for its stages: opts, with only the members the stages' rules or the
// applier may read (policy.FieldsOf), the lookup only where a rule may read
// it, and messages the YAML evaluator reads by slot where every stage
// allows. opts is returned as it is when it sets Fields.
func (e *Evaluators) Document(f document.Format, opts document.Options) document.Options {
	if opts.Fields != nil {
		return opts
	}
	if o, ok := e.docs[f]; ok {
		return o
	}
	var engs []*policy.Engine
	for _, k := range e.s.byFormat[f] {
		engs = append(engs, e.s.engines[k])
	}
	o := opts
	if len(engs) > 0 {
		if o.Fields = policy.FieldsOf(string(f), opts.Profile, applierReads, engs...); o.Fields != nil {
			views, lookup := true, false
			for _, eng := range engs {
				views = views && eng.MessageViewsFor(string(f), opts.Profile)
				lookup = lookup || eng.ReadsLookupFor(string(f), opts.Profile)
			}
			if !views {
				o.Fields = o.Fields.PlainMessages()
			}
			o.SkipLookup = o.SkipLookup || !lookup
		}
	}
	e.docs[f] = o
	return o
}

// For returns the evaluators of the stages run on format f, in order; none
// for a format without stages.
func (e *Evaluators) For(f document.Format) []*policy.Evaluator {
	if evs, ok := e.byFormat[f]; ok {
		return evs
	}
	idx := e.s.byFormat[f]
	evs := make([]*policy.Evaluator, len(idx))
	for i, k := range idx {
		if e.own[k] == nil {
			e.own[k] = e.s.engines[k].NewEvaluator()
		}
		evs[i] = e.own[k]
	}
	e.byFormat[f] = evs
	return evs
}
