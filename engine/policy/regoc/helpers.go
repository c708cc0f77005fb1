package regoc

import (
	"errors"
	"fmt"

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
	saved := env.slots
	defer func() { env.slots = saved }()
	var set ast.Set
	var value *ast.Term
	if !v.complete {
		set = ast.NewSet()
	}
	add := func(t *ast.Term) error {
		switch {
		case set != nil:
			set.Add(plain(t))
		case value == nil:
			value = t
		case !equal(value, t):
			return errConflict
		}
		return nil
	}
	for _, r := range v.rules {
		produced, err := r.values(env, nil, add)
		for _, e := range r.els {
			if produced || err != nil {
				break
			}
			produced, err = e.values(env, nil, add)
		}
		if err != nil {
			return nil, err
		}
	}
	switch {
	case set != nil:
		value = ast.NewTerm(set)
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
	saved := env.slots
	defer func() { env.slots = saved }()
	var value *ast.Term
	add := func(t *ast.Term) error {
		switch {
		case value == nil:
			value = t
		case !equal(value, t):
			return errConflict
		}
		return nil
	}
	for _, d := range f.defs {
		produced, err := d.rule.values(env, d.bind(args), add)
		for _, e := range d.els {
			if produced || err != nil {
				break
			}
			produced, err = e.rule.values(env, e.bind(args), add)
		}
		if err != nil {
			return nil, err
		}
	}
	return value, nil
}

// bind gives a definition's argument vars the call's arguments.
func (d *regocDef) bind(args []*ast.Term) func([]*ast.Term) {
	return func(slots []*ast.Term) {
		for i, p := range d.params {
			slots[p] = args[i]
		}
	}
}

// values runs a rule in fresh var slots (set up by bind) and hands add
// each value its head takes; produced says whether there was one.
func (r *regocRule) values(env *regocEnv, bind func([]*ast.Term), add func(*ast.Term) error) (produced bool, err error) {
	env.slots = make([]*ast.Term, r.slots)
	if bind != nil {
		bind(env.slots)
	}
	err = r.body.run(env, 0, func() error {
		t, err := r.key(env)
		if err != nil || t == nil {
			return err
		}
		produced = true
		return add(t)
	})
	return produced, err
}
