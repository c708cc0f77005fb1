package policy

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/rule"
)

// An engine's programs (rego_packset.go): which packs the documents of a
// format and profile are given, the program of those packs with this
// engine's rule table, and a worker's queries of each program.

// engineProgram is one pack set's program as this engine evaluates it
// (its rule table, the packs' scopes), and the fields of the documents it
// evaluates.
type engineProgram struct {
	set     packSet
	profile string // "": every module of the set (profileModules)
	once    sync.Once
	prog    *regoProgram
	err     error
	reads   *readTree        // what its rules may read of input
	fields  *document.Fields // what every rule may read where it runs
}

// enginePrograms are an engine's programs, by the documents they evaluate
// and by pack set.
type enginePrograms struct {
	byDoc sync.Map // docKey → *engineProgram (nil: no pack's Rego applies)
	mu    sync.Mutex
	bySet map[string]*engineProgram // by set and profile
}

// docKey names the documents that share a program: a record's (or a
// file's dataset document, dataset) of a format under a profile.
type docKey struct {
	dataset         bool
	format, profile string
}

// programFor returns the program of the Rego that applies to records of
// the format under the profile, compiled on first use; nil when no pack
// has Rego.
func (e *Engine) programFor(format, profile string) (*regoProgram, error) {
	ep := e.programOf(docKey{format: format, profile: profile})
	if ep == nil {
		return nil, nil
	}
	return ep.prog, ep.err
}

// datasetProgramFor is programFor for a file's dataset document: the packs
// with a dataset rule that applies to files of the format under the
// profile; nil when there are none.
func (e *Engine) datasetProgramFor(format, profile string) (*regoProgram, error) {
	ep := e.programOf(docKey{dataset: true, format: format, profile: profile})
	if ep == nil {
		return nil, nil
	}
	return ep.prog, ep.err
}

// programOf returns the compiled program of the documents k names; nil
// when no pack has Rego, or (dataset) none applies to them.
func (e *Engine) programOf(k docKey) *engineProgram {
	if !e.hasRego {
		return nil
	}
	v, ok := e.progs.byDoc.Load(k)
	if !ok {
		profile := ""
		if e.lazy {
			profile = k.profile
		}
		v, _ = e.progs.byDoc.LoadOrStore(k, e.programOfSet(e.packsFor(k), profile))
	}
	ep := v.(*engineProgram)
	if ep != nil {
		ep.once.Do(func() { e.compileSet(ep) })
	}
	return ep
}

// programOfSet returns the engine's program of a pack set under a
// profile ("": any), not yet compiled; nil for the empty set.
func (e *Engine) programOfSet(set packSet, profile string) *engineProgram {
	if set.empty() {
		return nil
	}
	set = e.parts.closeSet(set)
	key := string(set) + "\x00" + profile
	e.progs.mu.Lock()
	defer e.progs.mu.Unlock()
	if e.progs.bySet == nil {
		e.progs.bySet = map[string]*engineProgram{}
	}
	ep := e.progs.bySet[key]
	if ep == nil {
		ep = &engineProgram{set: set, profile: profile}
		e.progs.bySet[key] = ep
	}
	return ep
}

// compileSet compiles ep's pack set: the engine's program of every pack
// (program) when that is the set, else the pack set's alone, given the
// engine's rule table.
func (e *Engine) compileSet(ep *engineProgram) {
	if ep.set == e.parts.allSet() && ep.profile == "" {
		ep.prog, ep.err = e.program()
		ep.reads, ep.fields = &e.parts.regoReads, e.fields
		return
	}
	p, reads, err := e.parts.programOf(context.Background(), ep.set, ep.profile)
	if p == nil {
		if err == nil {
			err = errors.New("the packs' Rego did not compile")
		}
		ep.err = err
		return
	}
	prog := new(regoProgram)
	*prog = *p // parts may be shared (memoCompileParts): the rule table is this engine's
	prog.rules = make(map[string]rule.Rule, len(e.rules))
	for _, r := range e.rules {
		prog.rules[r.ID] = r
	}
	prog.scopes = e.packScopes
	ep.prog, ep.reads = prog, reads
	ep.fields, _ = engineFields(e.parts, reads)
}

// packsFor is the set of packs whose Rego the documents k names are given:
// every pack with Rego unless Options.LazyRego; else, for a record, the
// packs with a rule that applies to its format and profile (or that
// declare none: they apply everywhere) and those defining the actions set;
// for a dataset document, the packs with a dataset rule that applies.
func (e *Engine) packsFor(k docKey) packSet {
	c := e.parts
	if !e.lazy {
		return c.allSet()
	}
	return packSetOf(len(c.rego), func(i int) bool {
		r := &c.rego[i]
		if len(r.files) == 0 {
			return false
		}
		scope := e.packScopes[c.packs[i].Name]
		if scope == nil || scope.all {
			return true
		}
		if !k.dataset {
			return r.actions || scope.open(k.format, k.profile)
		}
		return slices.ContainsFunc(r.rules, func(r rule.Rule) bool {
			return r.Scope == rule.ScopeDataset && (len(r.Formats) == 0 || slices.Contains(r.Formats, k.format)) && r.AppliesUnder(k.profile)
		})
	})
}

// runPrograms are the programs a worker evaluated: documents of different
// formats (or a file's dataset document) may be given different ones, and
// a worker's queries (regoRun.queries, by index in its program's sets)
// are its program's.
type runPrograms struct {
	prog  *regoProgram
	saved map[*regoProgram][]*topdown.Query
}

// use makes run's queries (and the sets it opened) p's.
func (r *runPrograms) use(run *regoRun, p *regoProgram) {
	if r.prog == p {
		return
	}
	if r.prog != nil {
		if r.saved == nil {
			r.saved = map[*regoProgram][]*topdown.Query{}
		}
		r.saved[r.prog] = run.queries
	}
	r.prog, run.queries, run.open = p, r.saved[p], nil
}
