package policy

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy/pack"
	"github.com/chatlint/chatlint/engine/policy/yamlrule"
	"github.com/chatlint/chatlint/engine/rule"
)

// Engine holds every active rule, compiled once; it is safe for concurrent
// use by many workers.
type Engine struct {
	rules        []rule.Rule
	yaml         []*yamlrule.Rule // rules run on every document
	toolYAML     []*yamlrule.Rule // rules that read only the tools: memoized
	actions      []*yamlrule.Rule // rules with an action (actions.go)
	dataset      []*yamlrule.Rule // rules over a file's dataset document
	models       []Model          // the model tables of the packs (models.yaml)
	defaultModel string
	memo         yamlrule.ToolsMemo
	// rego is the packs' compiled Rego, nil until program compiles it
	// (hasRego: some pack has Rego), as Compile does unless Options.LazyRego
	// lets it wait for the first document a Rego rule applies to.
	rego     *regoProgram
	hasRego  bool
	regoOnce sync.Once
	regoErr  error
	// lazy is Options.LazyRego where it applies (only built-in Rego): a
	// document is then given a program of the packs that apply to it
	// alone, progs (rego_packset.go); else every one gets rego.
	lazy     bool
	progs    enginePrograms
	parts    *compiledParts // what program compiles from
	disabled map[string]bool
	timeout  time.Duration
	memory   uint64 // heap bound while rules run (memguard.go)
	profiles []Profile
	// demoted names, per provider profile, the rules whose errors are
	// warnings under it (verdict.go).
	demoted map[string]map[string]bool
	// relational is set when a rule in yaml uses let, group or cases;
	// roleFiltered when one walks only the messages of one role.
	relational, roleFiltered bool
	// regoScope says which documents OPA is given (rego_scope.go), and
	// packScopes which packs' Rego it evaluates on each (by pack name).
	regoScope  regoScope
	packScopes map[string]*regoScope
	// readsLookup is set when an active rule may read the document's lookup
	// member (reads.go); the two others say which kind of rule may.
	readsLookup, yamlReadsLookup, regoReadsLookup bool
	// tokenReads says which dataset rules may read the token summary
	// (dataset_tokens.go).
	tokenReads tokenReads
	// contentReads says which may read the content facts
	// (dataset_content.go).
	contentReads tokenReads
	gate         regoGate // when the Rego packs need evaluating (yaml_gate.go)
	// fields are the members of the document an active rule may read
	// (fielduse.go); set with rego when the packs have Rego (program).
	fields *document.Fields
	// yamlFields is what the YAML rules alone may read: the fields of a
	// document no Rego rule applies to (FieldsFor).
	yamlFields *document.Fields
	// gatedFields are what the YAML rules and the gates that apply may
	// read, by format and profile (gatedFieldsFor).
	gatedFields gatedFields
}

// Options tune which rules run.
type Options struct {
	// Disable lists rule ids that must not run (their findings are dropped).
	Disable []string
	// RecordTimeout bounds the evaluation of one document; 0 means
	// DefaultRuleTimeout.
	RecordTimeout time.Duration
	// RuleMemory bounds the heap while rules run; 0 means
	// DefaultRuleMemory.
	RuleMemory uint64
	// LazyRego lets Compile leave OPA's compile of the packs' Rego to the
	// first document a Rego rule applies to, when every Rego file is a
	// built-in one (whose tests compile it, so it cannot fail to): under
	// the default profile no built-in Rego rule applies to chat, and a run
	// over chat then neither compiles it nor keeps it on the heap, where
	// the collector would mark it at every cycle. A pack of the user's
	// is compiled at once, so that its errors stop the run before it
	// starts.
	LazyRego bool
}

// Compile loads and compiles packs. Errors are *CompileError values with
// file:line:col positions.
func Compile(ctx context.Context, packs []*Pack, opts Options) (*Engine, error) {
	e := &Engine{disabled: map[string]bool{}, timeout: opts.RecordTimeout, memory: opts.RuleMemory}
	if e.timeout <= 0 {
		e.timeout = DefaultRuleTimeout
	}
	if e.memory == 0 {
		e.memory = DefaultRuleMemory
	}
	for _, id := range opts.Disable {
		e.disabled[id] = true
	}
	lazy := opts.LazyRego && builtinRego(packs)
	parts := memoCompileParts(ctx, packs, lazy)
	modules := 0
	var errs []string
	for i, p := range packs {
		files, rules, err := parts.rego[i].files, parts.rego[i].rules, parts.rego[i].err
		if err != nil {
			errs = append(errs, err.(*CompileError).Errors...)
			continue
		}
		modules += len(files)
		for _, f := range files {
			e.regoReadsLookup = e.regoReadsLookup || f.reads.lookup
		}
		e.tokenReads.rego(files, rules)
		e.contentReads.member = contentMember
		e.contentReads.rego(files, rules)
		e.rules = append(e.rules, rules...)
		e.models = pack.MergeModels(e.models, p.Models)
		if e.defaultModel == "" {
			e.defaultModel = p.DefaultModel
		}
		scope := e.packScope(p.Name)
		if len(p.Rego) > 0 && len(rules) == 0 {
			e.regoScope.all = true // a pack whose Rego declares no rule: evaluate it everywhere
			scope.all = true
		}
		for _, r := range rules {
			e.regoScope.add(r)
			scope.add(r)
		}
		for _, pr := range p.Profiles {
			e.profiles = mergeProfile(e.profiles, pr)
		}
		gates := make([]compiledGate, len(p.YAML))
		for j, f := range p.YAML {
			gates[j] = parts.yaml[i][j].gate
			if parts.yaml[i][j].gateOnly() {
				// A gate runs where its pack's Rego applies, and reads
				// what the Rego reads there.
				e.regoReadsLookup = e.regoReadsLookup || yamlReads(f.Source, "lookup")
				continue
			}
			e.yamlReadsLookup = e.yamlReadsLookup || yamlReads(f.Source, "lookup")
			if yamlReads(f.Source, "tokens") {
				e.tokenReads.add(f.Name)
			}
			if yamlReadsContent(f.Source) {
				e.contentReads.add(f.Name)
			}
			yr, err := parts.yaml[i][j].rules, parts.yaml[i][j].err
			if err != nil {
				errs = append(errs, err.(*CompileError).Errors...)
				continue
			}
			for _, r := range yr {
				if r.PartOf == "" {
					e.rules = append(e.rules, r.Rule)
				}
				switch {
				case e.disabled[r.ID]: // compiled (so errors show) but never run
				case r.Scope == rule.ScopeDataset:
					e.dataset = append(e.dataset, r)
				case r.Action != nil:
					e.actions = append(e.actions, r)
				case r.ToolsOnly():
					e.toolYAML = append(e.toolYAML, r)
				default:
					e.yaml = append(e.yaml, r)
					e.relational = e.relational || r.Relational()
					e.roleFiltered = e.roleFiltered || r.WalksByRole()
				}
			}
		}
		errs = e.gatePack(p, *scope, gates, gateReadsOf(p, parts.yaml[i]), errs)
	}
	seen := map[string]rule.Rule{}
	for _, r := range e.rules {
		if prev, dup := seen[r.ID]; dup {
			errs = append(errs, fmt.Sprintf("%s: rule id %s is already declared at %s", r.Source, r.ID, prev.Source))
		}
		seen[r.ID] = r
	}
	if len(errs) > 0 {
		return nil, &CompileError{Errors: errs}
	}
	e.readsLookup = e.yamlReadsLookup || e.regoReadsLookup
	e.demoted = demotions(e.profiles, e.rules)
	e.fields, e.yamlFields = engineFields(parts, &parts.regoReads)
	e.lazy = lazy
	e.parts = parts // what FieldsOf reads; program compiles from it when hasRego
	sort.Slice(e.rules, func(i, j int) bool { return e.rules[i].ID < e.rules[j].ID })
	if modules > 0 {
		e.hasRego = true
		if !lazy {
			if _, err := e.program(); err != nil {
				return nil, err
			}
		}
	}
	return e, nil
}

// program returns the packs' compiled Rego, compiling it on the first
// call (Options.LazyRego); nil when no pack has Rego.
func (e *Engine) program() (*regoProgram, error) {
	if !e.hasRego {
		return nil, nil
	}
	e.regoOnce.Do(func() {
		p := e.parts.program(context.Background())
		if p == nil {
			e.regoErr = e.parts.progErr
			if e.regoErr == nil {
				e.regoErr = errors.New("the packs' Rego did not compile")
			}
			return
		}
		prog := new(regoProgram)
		*prog = *p // parts may be shared (memoCompileParts): the rule table is this engine's
		prog.rules = make(map[string]rule.Rule, len(e.rules))
		for _, r := range e.rules {
			prog.rules[r.ID] = r
		}
		prog.scopes = e.packScopes
		// What the Rego rules read is known once they are compiled.
		e.fields, _ = engineFields(e.parts, &e.parts.regoReads)
		e.rego = prog
	})
	return e.rego, e.regoErr
}

// builtinRego reports whether every Rego file of the packs is a built-in
// one (pack.File.Name "builtin:...").
func builtinRego(packs []*Pack) bool {
	for _, p := range packs {
		for _, f := range p.Rego {
			if !strings.HasPrefix(f.Name, "builtin:") {
				return false
			}
		}
	}
	return true
}

// Profiles returns the profiles the packs declare, besides the default one,
// in the order the packs declare them.
func (e *Engine) Profiles() []Profile { return e.profiles }

// CheckProfile refuses a profile no active pack declares: a misspelt
// profile would otherwise check silently as the default one.
func (e *Engine) CheckProfile(name string) error {
	if name == "" || name == document.DefaultProfile {
		return nil
	}
	names := []string{document.DefaultProfile}
	for _, p := range e.profiles {
		if p.Name == name {
			return nil
		}
		names = append(names, p.Name)
	}
	return fmt.Errorf("unknown profile %q (the active packs know %s)", name, strings.Join(names, ", "))
}

// Rules returns the active rules, sorted by id.
func (e *Engine) Rules() []rule.Rule {
	out := make([]rule.Rule, 0, len(e.rules))
	for _, r := range e.rules {
		if !e.disabled[r.ID] {
			r.Severities = e.severities(r)
			out = append(out, r)
		}
	}
	return out
}

// Evaluate runs every active rule over one document. Callers evaluating
// many documents should use one Evaluator per goroutine instead.
func (e *Engine) Evaluate(ctx context.Context, doc *document.Document) ([]Hit, error) {
	return e.NewEvaluator().Evaluate(ctx, doc)
}

func (e *Engine) evaluate(ctx context.Context, doc *document.Document, cancel topdown.Cancel, tracer topdown.QueryTracer, rc *yamlrule.Cache, run *regoRun) ([]Hit, []Action, error) {
	var hits []Hit
	var acts []Action
	if len(e.toolYAML) > 0 {
		var last *yamlrule.LastTools
		if rc != nil {
			last = &rc.LastTools
		}
		hits = e.memo.Eval(e.toolYAML, doc.Value, hits, last)
	}
	var cache *yamlrule.Cache // the partner sets relational rules share, the role index every rule
	if e.relational || e.roleFiltered {
		if rc == nil {
			rc = &yamlrule.Cache{}
		}
		rc.Reset(doc.Value)
		cache = rc
		// The worker keeps its cache from document to document; it must
		// not keep the document too (a big record would stay alive beside
		// the next one).
		defer rc.Reset(nil)
	}
	for _, r := range e.yaml {
		hits = r.EvalIn(doc.Value, cache, hits)
	}
	if cache != nil && cache.Err != nil { // a rule whose lets go round in a circle
		return nil, nil, fmt.Errorf("evaluating policies: %w", cache.Err)
	}
	if len(e.actions) > 0 {
		hits, acts = e.yamlActions(doc, hits, acts)
	}
	if e.hasRego && e.regoScope.open(string(doc.Format), profileOf(doc.Profile)) && e.needsRego(doc, cache) {
		prog, perr := e.programFor(string(doc.Format), profileOf(doc.Profile))
		if perr != nil {
			return nil, nil, fmt.Errorf("evaluating policies: %w", perr)
		}
		if cache != nil && doc.Work() > dropCacheAbove {
			// A long session: the YAML rules are done, and their sets and
			// indexes (as many elements as the session has messages)
			// need not stay alive beside what OPA builds.
			cache.Drop()
		}
		in := regoInput{views: doc.Value, doc: doc}
		if doc.BuiltForGate() {
			// Built with what the YAML rules and the gates read: OPA
			// reads it built whole, given the time limit of its work.
			w := doc.ForRego()
			in = regoInput{views: w.Value, doc: w}
			if run != nil && run.extend != nil {
				run.extend(docWork(w))
			}
		}
		var err error
		if run != nil && run.watch != nil {
			// The memory watchdog starts here: it stops OPA's evaluation
			// only, and what the YAML rules took before is not the Rego
			// rules' doing (watched from the start, 800,000 tool calls went
			// past the limit in the YAML rules, and OPA, cancelled before
			// its first rule, was reported as "rule (unknown)"). Nor is the
			// plain document topdown is given: where a set is not compiled
			// it is built first (kept in doc), outside the watch.
			if !prog.covers(string(doc.Format), profileOf(doc.Profile)) {
				in.doc.Materialized()
			}
			guard.watch(run.watch, e.memory)
		}
		hits, acts, err = prog.eval(ctx, run, in, string(doc.Format), profileOf(doc.Profile), cancel, tracer, hits, acts)
		var bad *OutputError // declared apart, or it escapes for every document
		if err != nil {
			if bad = asOutputError(err); bad == nil {
				return hits, acts, fmt.Errorf("evaluating policies: %w", err)
			}
		}
		if len(e.disabled) > 0 { // a set's query serves every rule writing to it: filter after
			hits = slices.DeleteFunc(hits, func(h Hit) bool { return e.disabled[h.Rule] })
			acts = slices.DeleteFunc(acts, func(a Action) bool { return e.disabled[a.Rule] })
		}
		if bad != nil {
			return hits, acts, bad
		}
	}
	return hits, acts, nil
}

// dropCacheAbove is the size of a document (Document.Work: its messages or
// entries) past which the YAML rules' cache lets go of its buffers before
// the Rego rules run, rather than keep them for the next document.
var dropCacheAbove = 4 * WorkUnit

// asOutputError is errors.As(err, **OutputError) without a pointer that
// escapes on the path every document takes.
func asOutputError(err error) *OutputError {
	var bad *OutputError
	if errors.As(err, &bad) {
		return bad
	}
	return nil
}

// profileOf is the profile a document is checked under (pack.ProfileOf).
func profileOf(p string) string { return pack.ProfileOf(p) }
