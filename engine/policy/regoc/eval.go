package regoc

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
	"github.com/open-policy-agent/opa/v1/topdown/builtins"
)

// regocEnv is the state of one evaluation of compiled rules: the input,
// the rule's var slots, what a built-in call is given, and stacks the
// calls share (so that a call allocates nothing of its own).
type regocEnv struct {
	input  *ast.Term
	slots  []*ast.Term
	cancel topdown.Cancel
	bctx   topdown.BuiltinContext
	cache  builtins.Cache // the built-ins' cache, cleared after each evaluation
	// emitSet, emitRule and emit gather what the rules of one record set
	// produce (Eval); emit is made once per env.
	emitSet   ast.Set
	emitRule  *regocRule
	emit      func() error
	steps     int
	ops       []*ast.Term // operands of the calls under way
	outs      []*ast.Term // outputs of the calls under way
	collect   func(*ast.Term) error
	found     int                         // solutions of not's expressions so far
	markFound func() error                // counts one
	virt      map[*regocVirtual]*ast.Term // the helper sets evaluated so far
	frames    []*regocFrame               // the helpers and functions under way, from depth on free
	depth     int
	stack     []*ast.Term // the var slots of the helpers and functions under way
	indexes   []*ast.Term // array index terms past OPA's interned ones, kept across evaluations
}

var regocEnvs = sync.Pool{New: func() any {
	env := &regocEnv{}
	env.collect = func(t *ast.Term) error { env.outs = append(env.outs, t); return nil }
	env.markFound = func() error { env.found++; return nil }
	env.emit = env.emitKey
	return env
}}

// emitKey adds the value of the current rule's head to the set being
// gathered.
func (env *regocEnv) emitKey() error {
	t, err := env.emitRule.key(env)
	if t != nil {
		if env.emitSet == nil {
			env.emitSet = ast.NewSet()
		}
		env.emitSet.Add(plain(t))
	}
	return err
}

// maxIndexTerms bounds the index terms an env keeps: a list longer than
// that makes a term per element past it, as OPA does past its own.
const maxIndexTerms = 1 << 17

// index returns the term of array index j. OPA interns the first few
// hundred; walking a long session's lists made a term per element per
// walk, so an env keeps the rest it has needed (terms are immutable).
func (env *regocEnv) index(j int) *ast.Term {
	if j < len(env.indexes) {
		return env.indexes[j]
	}
	if j >= maxIndexTerms {
		return ast.InternedTerm(j)
	}
	for n := len(env.indexes); n <= j; n++ {
		env.indexes = append(env.indexes, ast.InternedTerm(n))
	}
	return env.indexes[j]
}

// regocCancelled is the error topdown gives when its Cancel fires.
var ErrCancelled = &topdown.Error{Code: topdown.CancelErr, Message: "caller cancelled query execution"}

// tick checks for cancellation (the per-document time limit, the memory
// watchdog) every few iterations; topdown checks at every step.
func (env *regocEnv) tick() error {
	env.steps++
	if env.steps&31 == 0 && env.cancel != nil && env.cancel.Cancelled() {
		return ErrCancelled
	}
	return nil
}

type (
	// regocVal is the value of a term that does not iterate; nil when
	// undefined.
	regocVal func(env *regocEnv) (*ast.Term, error)
)

// regocTerm is a compiled term: exactly one of val and iter is set; iter
// is a ref that iterates, handing each of its values to a visit.
type regocTerm struct {
	val  regocVal
	iter *regocRef
}

// each calls k with every value of the term.
func (g regocTerm) each(env *regocEnv, k func(*ast.Term) error) error {
	if g.iter != nil {
		v := visit{do: visitFunc, f: k}
		return g.iter.iter(env, v)
	}
	t, err := g.val(env)
	if err != nil || t == nil {
		return err
	}
	return k(t)
}

// cont is what follows an iteration's binding: the rest of a body from
// step i, then k. It is a value, so that a body iterating per document
// makes no closure of its continuation.
type cont struct {
	b *regocBody
	i int
	k func() error
}

func (c cont) run(env *regocEnv) error { return c.b.run(env, c.i, c.k) }

// What a visit does with each value of an iterating ref.
const (
	visitBind   = iota // binds slot, then runs c
	visitTruthy        // runs c unless the value is false
	visitMatch         // runs c when the value matches m (binding its vars)
	visitEvery         // binds slot and looks for one solution of body (every.go)
	visitFunc          // calls f
)

// visit is what an iteration does with each value it reaches: the common
// cases as data rather than a closure, which a step would otherwise make
// each time it runs. It is passed by value: a pointer to it escapes.
type visit struct {
	do   int
	slot int
	c    cont // visitEvery: c.b is every's body
	m    regocMatch
	f    func(*ast.Term) error
}

func (v visit) take(env *regocEnv, t *ast.Term) error {
	switch v.do {
	case visitBind:
		env.slots[v.slot] = t
		return v.c.run(env)
	case visitTruthy:
		if isFalse(t) {
			return nil
		}
		return v.c.run(env)
	case visitMatch:
		if ok, err := v.m(env, t); !ok || err != nil {
			return err
		}
		return v.c.run(env)
	case visitEvery:
		env.slots[v.slot] = t
		return everyMember(env, v.c.b)
	}
	return v.f(t)
}

// regocStep is one expression of a body: a test (it holds at most once), an
// iteration, or a built-in call.
type regocStep struct {
	test func(env *regocEnv) (bool, error)
	iter func(env *regocEnv, c cont) error
	call *regocCall
}

// regocBody is the expressions of a rule, a comprehension or a not.
type regocBody struct{ steps []regocStep }

// run evaluates the body from step i on and calls k per solution. Tests
// and single-output calls run in a loop; only iterations recurse.
func (b *regocBody) run(env *regocEnv, i int, k func() error) error {
	for ; i < len(b.steps); i++ {
		s := &b.steps[i]
		switch {
		case s.test != nil:
			ok, err := s.test(env)
			if err != nil || !ok {
				return err
			}
		case s.call != nil:
			start := len(env.outs)
			if err := s.call.invoke(env); err != nil {
				return err
			}
			end := len(env.outs)
			if end-start == 1 {
				t := env.outs[start]
				env.outs = env.outs[:start]
				ok, err := s.call.accept(env, t)
				if err != nil || !ok {
					return err
				}
				continue
			}
			for j := start; j < end; j++ {
				ok, err := s.call.accept(env, env.outs[j])
				if err == nil && ok {
					err = b.run(env, i+1, k)
				}
				if err != nil {
					env.outs = env.outs[:start]
					return err
				}
			}
			env.outs = env.outs[:start]
			return nil
		default:
			return s.iter(env, cont{b, i + 1, k})
		}
	}
	return k()
}

// notStep holds when its expression has no solution. Like topdown, it
// looks for every solution, not just the first: an error in a later one
// is an error of the evaluation.
func notStep(inner *regocBody) regocStep {
	return regocStep{test: func(env *regocEnv) (bool, error) {
		outer := env.found // a not inside this one's expression (in a function) counts apart
		env.found = 0
		err := inner.run(env, 0, env.markFound)
		found := env.found
		env.found = outer
		return found == 0 && err == nil, err
	}}
}

func isFalse(t *ast.Term) bool {
	b, ok := t.Value.(ast.Boolean)
	return ok && !bool(b)
}

func truthyStep(g regocTerm) regocStep {
	if g.val != nil {
		return regocStep{test: func(env *regocEnv) (bool, error) {
			t, err := g.val(env)
			return t != nil && !isFalse(t), err
		}}
	}
	ref := g.iter
	return regocStep{iter: func(env *regocEnv, c cont) error {
		v := visit{do: visitTruthy, c: c}
		return ref.iter(env, v)
	}}
}

func bindStep(slot int, g regocTerm) regocStep {
	if g.val != nil {
		return regocStep{test: func(env *regocEnv) (bool, error) {
			t, err := g.val(env)
			env.slots[slot] = t
			return t != nil, err
		}}
	}
	ref := g.iter
	return regocStep{iter: func(env *regocEnv, c cont) error {
		v := visit{do: visitBind, slot: slot, c: c}
		return ref.iter(env, v)
	}}
}

func equalStep(a, b regocTerm) regocStep {
	if a.val != nil && b.val != nil {
		return regocStep{test: func(env *regocEnv) (bool, error) {
			x, err := a.val(env)
			if err != nil || x == nil {
				return false, err
			}
			y, err := b.val(env)
			if err != nil || y == nil {
				return false, err
			}
			return equal(x, y), nil
		}}
	}
	return regocStep{iter: func(env *regocEnv, c cont) error {
		return a.each(env, func(x *ast.Term) error {
			return b.each(env, func(y *ast.Term) error {
				if equal(x, y) {
					return c.run(env)
				}
				return nil
			})
		})
	}}
}

func constVal(t *ast.Term) regocVal {
	return func(*regocEnv) (*ast.Term, error) { return t, nil }
}

func inputVal(env *regocEnv) (*ast.Term, error) { return env.input, nil }

func slotVal(slot int) regocVal {
	return func(env *regocEnv) (*ast.Term, error) { return env.slots[slot], nil }
}

// values evaluates terms into out; false when one is undefined.
func values(env *regocEnv, gs []regocVal, out []*ast.Term) (bool, error) {
	for i, g := range gs {
		t, err := g(env)
		if err != nil || t == nil {
			return false, err
		}
		out[i] = t
	}
	return true, nil
}

func arrayVal(elems []regocVal) regocVal {
	return func(env *regocEnv) (*ast.Term, error) {
		out := make([]*ast.Term, len(elems))
		if ok, err := values(env, elems, out); !ok {
			return nil, err
		}
		return ast.ArrayTerm(out...), nil
	}
}

func setVal(elems []regocVal) regocVal {
	return func(env *regocEnv) (*ast.Term, error) {
		out := make([]*ast.Term, len(elems))
		if ok, err := values(env, elems, out); !ok {
			return nil, err
		}
		for i, t := range out {
			out[i] = plain(t)
		}
		return ast.SetTerm(out...), nil
	}
}

func objectVal(keys, vals []regocVal) regocVal {
	return func(env *regocEnv) (*ast.Term, error) {
		ts := make([]*ast.Term, 2*len(keys))
		ks, vs := ts[:len(keys)], ts[len(keys):]
		if ok, err := values(env, keys, ks); !ok {
			return nil, err
		}
		if ok, err := values(env, vals, vs); !ok {
			return nil, err
		}
		pairs := make([][2]*ast.Term, len(ks))
		for i := range ks {
			pairs[i] = [2]*ast.Term{plain(ks[i]), plain(vs[i])}
		}
		return ast.NewTerm(ast.NewObject(pairs...)), nil
	}
}

// A comprehension gathers its values in a frame (helpers.go), whose
// emitters are made once, so that evaluating one makes no closure.

func setCompVal(head regocVal, body *regocBody) regocVal {
	return func(env *regocEnv) (*ast.Term, error) {
		fr := env.pushFrame()
		defer env.popFrame()
		fr.head, fr.set = head, ast.NewSet()
		if err := body.run(env, 0, fr.emitElem); err != nil {
			return nil, err
		}
		return ast.NewTerm(fr.set), nil
	}
}

func arrayCompVal(head regocVal, body *regocBody) regocVal {
	return func(env *regocEnv) (*ast.Term, error) {
		fr := env.pushFrame()
		defer env.popFrame()
		fr.head, fr.gather = head, true
		if err := body.run(env, 0, fr.emitElem); err != nil {
			return nil, err
		}
		if len(fr.elems) == 0 {
			return ast.ArrayTerm(), nil
		}
		return ast.ArrayTerm(slices.Clone(fr.elems)...), nil
	}
}

func objectCompVal(key, val regocVal, body *regocBody, loc *ast.Location) regocVal {
	return func(env *regocEnv) (*ast.Term, error) {
		o := ast.NewObject()
		err := body.run(env, 0, func() error {
			kt, err := key(env)
			if err != nil || kt == nil {
				return err
			}
			vt, err := val(env)
			if err != nil || vt == nil {
				return err
			}
			kt, vt = plain(kt), plain(vt)
			if prev := o.Get(kt); prev != nil && !prev.Equal(vt) {
				return &topdown.Error{Code: topdown.ConflictErr, Location: loc, Message: "object keys must be unique"}
			}
			o.Insert(kt, vt)
			return nil
		})
		if err != nil {
			return nil, err
		}
		return ast.NewTerm(o), nil
	}
}

// regocRef is a ref into input or a bound var.
type regocRef struct {
	head  regocVal
	steps []regocKey
}

// regocKey is one key of a ref: looked up, or iterated binding a slot.
type regocKey struct {
	key     regocVal
	iterate bool
	bind    int
}

// val looks a ref up whose keys are all bound.
func (r *regocRef) val(env *regocEnv) (*ast.Term, error) {
	t, err := r.head(env)
	for i := 0; t != nil && err == nil && i < len(r.steps); i++ {
		var key *ast.Term
		if key, err = r.steps[i].key(env); key == nil {
			return nil, err
		}
		t = regocGet(t, key)
	}
	return t, err
}

func (r *regocRef) iter(env *regocEnv, v visit) error {
	t, err := r.head(env)
	if err != nil || t == nil {
		return err
	}
	return r.walk(env, t, 0, v)
}

// walk follows the keys from step i on, iterating (in topdown's order:
// array indexes, sorted object keys, sorted set elements) where a key is
// an unbound var.
func (r *regocRef) walk(env *regocEnv, t *ast.Term, i int, k visit) error {
	for ; i < len(r.steps); i++ {
		st := &r.steps[i]
		if !st.iterate {
			key, err := st.key(env)
			if err != nil || key == nil {
				return err
			}
			if t = regocGet(t, key); t == nil {
				return nil
			}
			continue
		}
		next := i + 1
		switch v := t.Value.(type) {
		case *ast.Array:
			for j := range v.Len() {
				if err := env.tick(); err != nil {
					return err
				}
				env.slots[st.bind] = env.index(j)
				if err := r.walk(env, v.Elem(j), next, k); err != nil {
					return err
				}
			}
		case ast.Set:
			for _, e := range v.Slice() {
				if err := env.tick(); err != nil {
					return err
				}
				env.slots[st.bind] = e
				if err := r.walk(env, e, next, k); err != nil {
					return err
				}
			}
		case ast.Object:
			return v.Iter(func(key, val *ast.Term) error {
				if err := env.tick(); err != nil {
					return err
				}
				env.slots[st.bind] = key
				return r.walk(env, val, next, k)
			})
		}
		return nil
	}
	return k.take(env, t)
}

// regocGet looks a key up as topdown does: an object's member, an array's
// element, a set's element.
func regocGet(t, key *ast.Term) *ast.Term {
	key = plain(key)
	switch v := t.Value.(type) {
	case ast.Object:
		return v.Get(key)
	case *ast.Array:
		return v.Get(key)
	case ast.Set:
		if v.Contains(key) {
			return key
		}
	}
	return nil
}

// What a call does with each output of its built-in.
const (
	callTruthy  = iota // no captured output: holds unless false
	callBind           // binds the output var
	callCompare        // compares with the bound output term
)

// regocCall is a built-in call: OPA's own implementation, given what
// topdown gives it.
type regocCall struct {
	f    topdown.BuiltinFunc
	fn   *regocFunc // a user function instead of a built-in
	args []regocVal
	n    int       // operands, with the output
	out  *ast.Term // the output operand, when captured
	loc  *ast.Location
	mode int
	slot int      // callBind
	want regocVal // callCompare
	// reads is what the built-in reads of its operands (builtinReads).
	reads viewReads
}

// invoke calls the built-in; its outputs are pushed on env.outs. A
// built-in's error makes the expression undefined, as in topdown without
// strict built-in errors, unless it halts the evaluation.
func (c *regocCall) invoke(env *regocEnv) error {
	base := len(env.ops)
	for range c.n {
		env.ops = append(env.ops, nil)
	}
	ops := env.ops[base : base+c.n : base+c.n]
	defer func() {
		clear(ops)
		env.ops = env.ops[:base]
	}()
	if ok, err := values(env, c.args, ops); !ok {
		return err
	}
	if c.out != nil {
		ops[c.n-1] = c.out
	}
	if c.fn == nil {
		plainOperands(c.reads, ops)
	}
	if c.fn != nil {
		t, err := c.fn.call(env, ops[:c.fn.arity])
		if t != nil {
			env.outs = append(env.outs, t)
		}
		return err
	}
	bctx := env.bctx
	bctx.Location = c.loc
	start := len(env.outs)
	if err := c.f(bctx, ops, env.collect); err != nil {
		env.outs = env.outs[:start]
		var halt topdown.Halt
		if errors.As(err, &halt) {
			return halt.Err
		}
	}
	return nil
}

// accept applies the call's mode to one output.
func (c *regocCall) accept(env *regocEnv, t *ast.Term) (bool, error) {
	switch c.mode {
	case callTruthy:
		return !isFalse(t), nil
	case callBind:
		env.slots[c.slot] = t
		return true, nil
	}
	want, err := c.want(env)
	if err != nil || want == nil {
		return false, err
	}
	return equal(t, want), nil
}

// regocEval evaluates the compiled packages over one input: per pack and
// set, the set of values the rules produced.
func Eval(ctx context.Context, pkgs []*Package, input ast.Value, cancel topdown.Cancel, caps *ast.Capabilities, out map[SetKey]ast.Set) error {
	env := regocEnvs.Get().(*regocEnv)
	defer func() {
		clear(env.slots)
		clear(env.cache)
		env.emitSet, env.emitRule = nil, nil
		env.input, env.cancel, env.bctx = nil, nil, topdown.BuiltinContext{}
		env.ops, env.outs = env.ops[:0], env.outs[:0]
		clear(env.virt)
		clear(env.stack[:cap(env.stack)])
		env.stack, env.depth = env.stack[:0], 0
		regocEnvs.Put(env)
	}()
	env.input, env.cancel, env.steps = ast.NewTerm(input), cancel, 0
	if env.cache == nil {
		env.cache = builtins.Cache{}
	}
	env.bctx = topdown.BuiltinContext{Context: ctx, Metrics: noMetrics, Cancel: cancel, Cache: env.cache, Capabilities: caps}
	for _, p := range pkgs {
		for _, set := range recordSets {
			rules := p.sets[set]
			if len(rules) == 0 {
				continue
			}
			key := SetKey{p.pack, set}
			env.emitSet = out[key]
			for _, r := range rules {
				if cap(env.slots) < r.slots {
					env.slots = make([]*ast.Term, r.slots)
				}
				env.slots = env.slots[:r.slots]
				env.emitRule = r
				if err := r.body.run(env, 0, env.emit); err != nil {
					return err
				}
			}
			if env.emitSet != nil {
				out[key] = env.emitSet
			}
			env.emitSet = nil
		}
	}
	return nil
}

// regocSetKey names one finding set of one pack.
type SetKey struct{ Pack, Set string }
