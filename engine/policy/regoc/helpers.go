package regoc

import (
	"errors"
	"fmt"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Helper rules a compiled rule reads through data: partial sets, complete
// rules and functions, each compiled once and evaluated in its own var
// slots; a conflict (two values) leaves the document to topdown.

// regocPkgCompiler compiles the packages of one program and the helper
// sets their rules read.
type regocPkgCompiler struct {
	c     *ast.Compiler
	virt  map[string]*regocVirtual
	funcs map[string]*regocFunc
}

func newRegocPkgCompiler(c *ast.Compiler) *regocPkgCompiler {
	return &regocPkgCompiler{c: c, virt: map[string]*regocVirtual{}, funcs: map[string]*regocFunc{}}
}

// function compiles a user function once: every definition has the same
// arity, distinct vars as arguments and a value, and may have an else
// chain; no default.
func (pc *regocPkgCompiler) function(ref ast.Ref) (*regocFunc, error) {
	path := ref.String()
	if f, ok := pc.funcs[path]; ok {
		if f.err != nil {
			return nil, f.err
		}
		return f, nil
	}
	f := &regocFunc{}
	pc.funcs[path] = f
	rules := pc.c.GetRulesExact(ref)
	if len(rules) == 0 || len(pc.c.GetRulesWithPrefix(ref)) != len(rules) {
		f.err = fmt.Errorf("call of %v", ref)
		return nil, f.err
	}
	f.arity = len(rules[0].Head.Args)
	for _, r := range rules {
		d, err := pc.definition(r, r.Head.Args, f.arity)
		for e := r.Else; e != nil && err == nil; e = e.Else {
			args := e.Head.Args
			if len(args) == 0 {
				args = r.Head.Args
			}
			var ed *regocDef
			if ed, err = pc.definition(e, args, f.arity); err == nil {
				d.els = append(d.els, ed)
			}
		}
		if err != nil {
			f.err = fmt.Errorf("function %v: %w", ref, err)
			return nil, f.err
		}
		f.defs = append(f.defs, d)
	}
	return f, nil
}

func (pc *regocPkgCompiler) definition(r *ast.Rule, args ast.Args, arity int) (*regocDef, error) {
	switch {
	case r.Default:
		return nil, fmt.Errorf("%v: default", r.Location)
	case len(args) != arity || arity == 0 || r.Head.Value == nil || len(r.Head.Ref()) != 1:
		return nil, fmt.Errorf("%v: not a function", r.Location)
	}
	sc := &regocScope{slots: map[ast.Var]int{}, pc: pc}
	d := &regocDef{}
	exprs := r.Body
	for n, a := range args {
		v, ok := a.Value.(ast.Var)
		if !ok && a.IsGround() {
			// A constant argument (f(0) if ...) is a parameter the call's
			// value must equal, as OPA unifies a ground term with it.
			v = ast.Var(fmt.Sprintf("__regoc_arg%d__", n))
			eq := ast.Equal.Expr(ast.NewTerm(v), a)
			eq.Location = a.Location
			exprs = append(ast.Body{eq}, exprs...)
			ok = true
		}
		if !ok || sc.isBound(v) || isInput(v) {
			return nil, fmt.Errorf("%v: argument %v", r.Location, a)
		}
		i := sc.slot(v)
		sc.bound[i] = true
		d.params = append(d.params, i)
	}
	body, err := sc.body(exprs)
	if err != nil {
		return nil, err
	}
	val, err := sc.ground(r.Head.Value)
	if err != nil {
		return nil, fmt.Errorf("%v: head: %w", r.Location, err)
	}
	d.rule = &regocRule{body: body, key: val, slots: sc.n}
	return d, nil
}

// virtualOf resolves a ref into data: its first n terms must name exactly
// the rules of one helper (a partial set or complete rule without
// arguments, in any package), with no rule below it; the rest of the ref
// looks into its value.
func (pc *regocPkgCompiler) virtualOf(r ast.Ref) (*regocVirtual, int, error) {
	for n := 2; n <= len(r); n++ {
		if _, ok := r[n-1].Value.(ast.String); !ok {
			break
		}
		prefix := r[:n]
		rules := pc.c.GetRulesExact(prefix)
		if len(rules) == 0 {
			continue
		}
		if len(pc.c.GetRulesWithPrefix(prefix)) != len(rules) {
			return nil, 0, fmt.Errorf("ref %v: rules below it", prefix)
		}
		v, err := pc.virtual(prefix.String(), rules)
		return v, n, err
	}
	return nil, 0, fmt.Errorf("ref %v", r)
}

// virtual compiles the rules of a helper once: a partial set, or a
// complete rule (its definitions, their else chains, an optional default).
func (pc *regocPkgCompiler) virtual(path string, rules []*ast.Rule) (*regocVirtual, error) {
	if v, ok := pc.virt[path]; ok {
		if v.err != nil {
			return nil, v.err
		}
		return v, nil
	}
	v := &regocVirtual{complete: rules[0].Head.RuleKind() == ast.SingleValue}
	pc.virt[path] = v
	for _, r := range rules {
		var rr *regocRule
		var err error
		switch {
		case !v.complete:
			rr, err = pc.rule(r)
		case r.Head.RuleKind() != ast.SingleValue || r.Head.Key != nil || r.Head.Value == nil:
			err = fmt.Errorf("%v: not a complete rule", r.Location)
		case r.Default:
			if !r.Head.Value.IsGround() || len(r.Head.Args) > 0 {
				err = fmt.Errorf("%v: a default that is not a ground value", r.Location)
				break // the helper does not compile: topdown evaluates it
			}
			v.def = r.Head.Value
			continue
		default:
			rr, err = pc.compileOne(r, r.Head.Value)
			for e := r.Else; e != nil && err == nil; e = e.Else {
				var er *regocRule
				if er, err = pc.compileOne(e, e.Head.Value); err == nil {
					rr.els = append(rr.els, er)
				}
			}
		}
		if err != nil {
			v.err = fmt.Errorf("helper %s: %w", path, err)
			return nil, v.err
		}
		v.rules = append(v.rules, rr)
	}
	return v, nil
}

// regocVirtual is a helper a rule reads through data: a partial set, or a
// complete rule. It is evaluated once per document, on first read, in its
// own var slots.
type regocVirtual struct {
	rules    []*regocRule
	complete bool
	def      *ast.Term // a complete rule's default value
	err      error     // why it does not compile
}

// errConflict is a complete rule with two values: the closures leave
// the document to topdown, which reports the conflict its own way.
var errConflict = errors.New("conflicting values")

func (v *regocVirtual) val(env *regocEnv) (*ast.Term, error) {
	if t, ok := env.virt[v]; ok {
		return t, nil
	}
	fr := env.pushFrame()
	defer env.popFrame()
	if !v.complete {
		fr.set = ast.NewSet()
	}
	for _, r := range v.rules {
		produced, err := r.values(env, fr, nil, nil)
		for _, e := range r.els {
			if produced || err != nil {
				break
			}
			produced, err = e.values(env, fr, nil, nil)
		}
		if err != nil {
			return nil, err
		}
	}
	value := fr.value
	switch {
	case fr.set != nil:
		value = ast.NewTerm(fr.set)
	case value == nil:
		value = v.def // nil: undefined
	}
	if env.virt == nil {
		env.virt = map[*regocVirtual]*ast.Term{}
	}
	env.virt[v] = value
	return value, nil
}

// regocFunc is a user function: its definitions, each given the
// arguments in its own var slots. Two definitions (or two solutions of
// one) with different values are a conflict, left to topdown.
type regocFunc struct {
	arity int
	defs  []*regocDef
	err   error // why it does not compile
}

type regocDef struct {
	params []int
	rule   *regocRule
	els    []*regocDef // its else chain
}

func (f *regocFunc) call(env *regocEnv, args []*ast.Term) (*ast.Term, error) {
	fr := env.pushFrame()
	defer env.popFrame()
	for _, d := range f.defs {
		produced, err := d.rule.values(env, fr, d.params, args)
		for _, e := range d.els {
			if produced || err != nil {
				break
			}
			produced, err = e.rule.values(env, fr, e.params, args)
		}
		if err != nil {
			return nil, err
		}
	}
	return fr.value, nil
}

// values runs a rule in fresh var slots, its params given args, and hands
// fr each value its head takes; produced says whether there was one.
func (r *regocRule) values(env *regocEnv, fr *regocFrame, params []int, args []*ast.Term) (produced bool, err error) {
	saved, base := env.pushSlots(r.slots)
	defer env.popSlots(saved, base)
	for i, p := range params {
		env.slots[p] = args[i]
	}
	fr.rule, fr.produced = r, false
	err = r.body.run(env, 0, fr.emit)
	return fr.produced, err
}

// regocFrame is the state of one helper's or function's evaluation: what
// its rules produced so far. Frames are kept on the env's stack and used
// again, each with its emit made once, so that a call (a function called
// per message of a long session) allocates no closure of its own.
type regocFrame struct {
	env      *regocEnv
	rule     *regocRule // the rule being evaluated
	produced bool       // whether it produced a value
	set      ast.Set    // a partial set's values, a set comprehension's
	value    *ast.Term  // a complete rule's or function's value
	emit     func() error
	// A comprehension's: its head, and an array comprehension's values
	// (gather), in a buffer the frame keeps from use to use.
	head     regocVal
	gather   bool
	elems    []*ast.Term
	emitElem func() error
}

// add takes the value of the rule's head in the current solution. Two
// different values of a complete rule or function are a conflict.
func (fr *regocFrame) add() error {
	t, err := fr.rule.key(fr.env)
	if err != nil || t == nil {
		return err
	}
	fr.produced = true
	switch {
	case fr.set != nil:
		fr.set.Add(plain(t))
	case fr.value == nil:
		fr.value = t
	case !equal(fr.value, t):
		return errConflict
	}
	return nil
}

// addElem takes the value of a comprehension's head in the current
// solution.
func (fr *regocFrame) addElem() error {
	t, err := fr.head(fr.env)
	if t == nil {
		return err
	}
	if fr.gather {
		fr.elems = append(fr.elems, t)
	} else {
		fr.set.Add(plain(t))
	}
	return err
}

// pushFrame returns a cleared frame for a helper, a function or a
// comprehension evaluated under the current one.
func (env *regocEnv) pushFrame() *regocFrame {
	if env.depth == len(env.frames) {
		fr := &regocFrame{env: env}
		fr.emit, fr.emitElem = fr.add, fr.addElem
		env.frames = append(env.frames, fr)
	}
	fr := env.frames[env.depth]
	env.depth++
	fr.rule, fr.produced, fr.set, fr.value = nil, false, nil, nil
	return fr
}

func (env *regocEnv) popFrame() {
	env.depth--
	fr := env.frames[env.depth]
	fr.rule, fr.set, fr.value, fr.head, fr.gather = nil, nil, nil, nil, false
	clear(fr.elems)
	fr.elems = fr.elems[:0]
	if cap(fr.elems) > maxKeptElems {
		fr.elems = nil // a long session's list: not kept for the next
	}
}

// maxKeptElems bounds the buffer a frame keeps for array comprehensions.
const maxKeptElems = 1 << 12

// pushSlots gives a rule n fresh var slots on the env's stack and returns
// what popSlots restores. A frame's slots stay where they were when the
// stack grows: the slice it runs in is its own until it returns.
func (env *regocEnv) pushSlots(n int) ([]*ast.Term, int) {
	saved, base := env.slots, len(env.stack)
	env.stack = slices.Grow(env.stack, n)[:base+n]
	env.slots = env.stack[base : base+n : base+n]
	clear(env.slots)
	return saved, base
}

func (env *regocEnv) popSlots(saved []*ast.Term, base int) {
	clear(env.slots)
	env.stack = env.stack[:base]
	env.slots = saved
}
