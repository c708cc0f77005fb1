package regoc

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/metrics"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// Rego packages whose record sets (deny, warn, info, actions) are written in a
// plain subset of Rego are not evaluated by OPA's topdown but by closures
// compiled here from OPA's compiled AST (after the compiler's rewriting: `:=`
// is `=`, `some x in xs` is `x = xs[_]`, nested calls and comprehensions are
// hoisted into generated vars). The closures follow topdown's semantics
// expression by expression: unification binds a var or compares with
// ast.Term.Equal, refs iterate arrays, objects and sets in topdown's order,
// built-in functions are OPA's own implementations called as topdown calls
// them, and a built-in's error makes its expression undefined. Helper rules
// (helpers.go), array patterns (pattern.go) and every (every.go) are in
// the subset; with, a function argument that is not a plain var, a
// default function, print, walk… keep the whole package on topdown, and
// CHATLINT_REGO_EVAL=topdown keeps every package there. A document on which
// the closures meet an error other than cancellation (a conflict) is
// evaluated again on topdown (policy/regoc_program.go), which reports it.

// regocEnvVar names the environment variable that forces topdown.
const EnvVar = "CHATLINT_REGO_EVAL"

// regocDisabled reports whether CHATLINT_REGO_EVAL asks for topdown only.
func Disabled() bool { return os.Getenv(EnvVar) == "topdown" }

// recordSets are the sets a record's evaluation reads from each package.
var recordSets = []string{"deny", "warn", "info", actionSet}

// regocRule is one compiled `<set> contains key if body` rule.
type regocRule struct {
	body  *regocBody
	key   regocVal
	slots int
	els   []*regocRule // a complete rule's else chain
}

// regocPackage is a package whose record sets run as closures.
type Package struct {
	Path string // data.chatlint.…
	pack string
	sets map[string][]*regocRule
}

// Pack is the name of the pack the package is of.
func (p *Package) Pack() string { return p.pack }

// Actions is the package with its actions set alone, nil when it has
// none: what a caller evaluates where none of the pack's findings would be
// kept, as actions are not dropped outside their rules' formats.
func (p *Package) Actions() *Package {
	if len(p.sets[actionSet]) == 0 {
		return nil
	}
	return &Package{Path: p.Path, pack: p.pack, sets: map[string][]*regocRule{actionSet: p.sets[actionSet]}}
}

// regocCompile decides, package by package, which packages run as closures,
// and compiles them. It returns the compiled packages and the packages left
// to topdown, both sorted.
func CompilePackages(c *ast.Compiler, pkgPack map[string]string) (compiled []*Package, rest []string) {
	pkgs := make([]string, 0, len(pkgPack))
	for p := range pkgPack {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	pc := newRegocPkgCompiler(c)
	for _, pkg := range pkgs {
		p, err := regocPackageOf(pc, pkg, pkgPack[pkg])
		if err != nil {
			rest = append(rest, pkg)
			continue
		}
		compiled = append(compiled, p)
	}
	return compiled, rest
}

// regocWhy says why a package stays on topdown; nil when it compiles. It is
// what `CHATLINT_REGO_EVAL=explain` prints (see regocExplain).
func regocWhy(c *ast.Compiler, pkg string) error {
	_, err := regocPackageOf(newRegocPkgCompiler(c), pkg, "")
	return err
}

// regocPackageOf compiles the record sets of one package, or says why it
// cannot.
func regocPackageOf(pc *regocPkgCompiler, pkg, pack string) (*Package, error) {
	c := pc.c
	p := &Package{Path: pkg, pack: pack, sets: map[string][]*regocRule{}}
	for _, name := range sortedModuleNames(c) {
		m := c.Modules[name]
		mpkg := m.Package.Path.String()
		for _, r := range m.Rules {
			full := mpkg + "." + strings.TrimPrefix(r.Head.Ref().String(), "data.")
			for _, set := range recordSets {
				target := pkg + "." + set
				switch {
				case full == target:
					rr, err := pc.rule(r)
					if err != nil {
						return nil, err
					}
					p.sets[set] = append(p.sets[set], rr)
				case strings.HasPrefix(full, target+".") || strings.HasPrefix(full, target+"["):
					return nil, fmt.Errorf("%s: rule %s writes inside %s", r.Location, full, target)
				}
			}
		}
	}
	return p, nil
}

func sortedModuleNames(c *ast.Compiler) []string {
	names := make([]string, 0, len(c.Modules))
	for n := range c.Modules {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// rule compiles one rule of a record set or of a helper set: it must be a
// partial set rule (`contains`), with no else, no default, no arguments.
func (pc *regocPkgCompiler) rule(r *ast.Rule) (*regocRule, error) {
	if r.Head.RuleKind() != ast.MultiValue || r.Head.Key == nil || r.Head.Value != nil {
		return nil, fmt.Errorf("%v: not a partial set rule", r.Location)
	}
	return pc.compileRule(r, r.Head.Key)
}

// compileRule compiles a rule's body and the head term it produces (a
// set's element, a complete rule's value).
func (pc *regocPkgCompiler) compileRule(r *ast.Rule, head *ast.Term) (*regocRule, error) {
	if r.Else != nil {
		return nil, fmt.Errorf("%v: else", r.Location)
	}
	return pc.compileOne(r, head)
}

// compileOne compiles one rule of an else chain, or a rule without one.
func (pc *regocPkgCompiler) compileOne(r *ast.Rule, head *ast.Term) (*regocRule, error) {
	why := ""
	switch {
	case r.Default:
		why = "default rule"
	case len(r.Head.Args) > 0:
		why = "function"
	case len(r.Head.Ref()) != 1:
		why = "ref head"
	}
	if why != "" {
		return nil, fmt.Errorf("%v: %s", r.Location, why)
	}
	sc := &regocScope{slots: map[ast.Var]int{}, pc: pc}
	body, err := sc.body(r.Body)
	if err != nil {
		return nil, err
	}
	key, err := sc.ground(head)
	if err != nil {
		return nil, fmt.Errorf("%v: head: %w", r.Location, err)
	}
	return &regocRule{body: body, key: key, slots: sc.n}, nil
}

// regocScope assigns every var of a rule a slot and tracks, expression by
// expression, which vars are bound.
type regocScope struct {
	pc    *regocPkgCompiler
	slots map[ast.Var]int
	bound []bool // by slot
	n     int
}

func (s *regocScope) slot(v ast.Var) int {
	if i, ok := s.slots[v]; ok {
		return i
	}
	s.slots[v] = s.n
	s.bound = append(s.bound, false)
	s.n++
	return s.n - 1
}

func (s *regocScope) isBound(v ast.Var) bool {
	i, ok := s.slots[v]
	return ok && s.bound[i]
}

// snapshot and restore keep the bound vars of a nested body (not,
// comprehension) from leaking out of it.
func (s *regocScope) snapshot() []bool { return slices.Clone(s.bound) }
func (s *regocScope) restore(b []bool) {
	copy(s.bound, b)
	for i := len(b); i < len(s.bound); i++ {
		s.bound[i] = false
	}
}

// body compiles the expressions of a body in order.
func (s *regocScope) body(b ast.Body) (*regocBody, error) {
	out := &regocBody{steps: make([]regocStep, 0, len(b))}
	for _, e := range b {
		x, err := s.expr(e)
		if err != nil {
			return nil, fmt.Errorf("%v: %w", e.Location, err)
		}
		out.steps = append(out.steps, x)
	}
	return out, nil
}

func (s *regocScope) expr(e *ast.Expr) (regocStep, error) {
	if len(e.With) > 0 {
		return regocStep{}, fmt.Errorf("with")
	}
	if e.Negated {
		inner := e.Copy()
		inner.Negated = false
		saved := s.snapshot()
		x, err := s.expr(inner)
		s.restore(saved)
		if err != nil {
			return regocStep{}, err
		}
		return notStep(&regocBody{steps: []regocStep{x}}), nil
	}
	switch t := e.Terms.(type) {
	case *ast.Every:
		return s.every(t)
	case *ast.Term:
		g, err := s.gen(t)
		if err != nil {
			return regocStep{}, err
		}
		return truthyStep(g), nil
	case []*ast.Term:
		op, ok := t[0].Value.(ast.Ref)
		if !ok {
			return regocStep{}, fmt.Errorf("call of %v", t[0])
		}
		name := op.String()
		if name == ast.Equality.Name {
			return s.unify(t[1], t[2])
		}
		if op[0].Equal(ast.DefaultRootDocument) {
			fn, err := s.pc.function(op)
			if err != nil {
				return regocStep{}, err
			}
			return s.callOf(&regocCall{fn: fn, loc: e.Location}, fn.arity, t[1:])
		}
		return s.call(name, t[1:], e.Location)
	default:
		return regocStep{}, fmt.Errorf("%T expression", e.Terms)
	}
}

// unify compiles a = b: a var unbound on one side is bound to the other
// side's values; otherwise both sides are evaluated (the left first, as
// topdown does) and compared.
func (s *regocScope) unify(a, b *ast.Term) (regocStep, error) {
	if v, ok := a.Value.(ast.Var); ok && !s.isBound(v) && !isInput(v) {
		return s.bindTo(v, b)
	}
	if v, ok := b.Value.(ast.Var); ok && !s.isBound(v) && !isInput(v) {
		return s.bindTo(v, a)
	}
	if s.isPattern(a) {
		return s.destructure(a, b)
	}
	if s.isPattern(b) {
		return s.destructure(b, a)
	}
	ga, err := s.gen(a)
	if err != nil {
		return regocStep{}, err
	}
	gb, err := s.gen(b)
	if err != nil {
		return regocStep{}, err
	}
	return equalStep(ga, gb), nil
}

func (s *regocScope) bindTo(v ast.Var, t *ast.Term) (regocStep, error) {
	if vs := t.Vars(); vs.Contains(v) {
		return regocStep{}, fmt.Errorf("var %v on both sides", v)
	}
	g, err := s.gen(t)
	if err != nil {
		return regocStep{}, err
	}
	i := s.slot(v)
	s.bound[i] = true
	return bindStep(i, g), nil
}

// unsupportedBuiltins are evaluated specially by topdown, or need what the
// closures do not give a built-in (the clock, a tracer, a print hook).
var unsupportedBuiltins = map[string]bool{
	"print": true, "internal.print": true, "trace": true, "walk": true,
	"rego.metadata.chain": true, "rego.metadata.rule": true, "opa.runtime": true,
	"time.now_ns": true, "internal.test_case": true,
}

// call compiles a built-in function call; its operands must be bound, and
// its output, when captured, is unified like a = b.
func (s *regocScope) call(name string, operands []*ast.Term, loc *ast.Location) (regocStep, error) {
	bi, ok := ast.BuiltinMap[name]
	f := topdown.GetBuiltin(name)
	if !ok || f == nil || unsupportedBuiltins[name] || bi.Nondeterministic || strings.HasPrefix(name, "io.jwt.") || bi.Decl.Result() == nil {
		return regocStep{}, fmt.Errorf("call of %s", name)
	}
	return s.callOf(&regocCall{f: f, loc: loc, reads: builtinReads[name]}, bi.Decl.Arity(), operands)
}

// callOf compiles the operands of a call of a built-in or a function.
func (s *regocScope) callOf(c *regocCall, arity int, operands []*ast.Term) (regocStep, error) {
	if len(operands) != arity && len(operands) != arity+1 {
		return regocStep{}, fmt.Errorf("call with %d operands", len(operands))
	}
	c.n = len(operands)
	for i := range arity {
		g, err := s.ground(operands[i])
		if err != nil {
			return regocStep{}, err
		}
		c.args = append(c.args, g)
	}
	if len(operands) == arity {
		c.mode = callTruthy
		return regocStep{call: c}, nil
	}
	out := operands[arity]
	c.out = out
	if v, ok := out.Value.(ast.Var); ok && !s.isBound(v) && !isInput(v) {
		c.slot = s.slot(v)
		s.bound[c.slot] = true
		c.mode = callBind
		return regocStep{call: c}, nil
	}
	g, err := s.ground(out)
	if err != nil {
		return regocStep{}, err
	}
	c.mode, c.want = callCompare, g
	return regocStep{call: c}, nil
}

func isInput(v ast.Var) bool { return v.Equal(ast.InputRootDocument.Value) }

// ground compiles a term that must not bind anything: every var in it is
// bound (refs may not iterate).
func (s *regocScope) ground(t *ast.Term) (regocVal, error) {
	var unbound error
	ast.WalkVars(t, func(v ast.Var) bool {
		if !s.isBound(v) && !isInput(v) && unbound == nil {
			unbound = fmt.Errorf("unbound var %v in %v", v, t)
		}
		return false
	})
	if unbound != nil {
		return nil, unbound
	}
	g, err := s.gen(t)
	if err != nil {
		return nil, err
	}
	if g.val == nil {
		return nil, fmt.Errorf("%v iterates", t)
	}
	return g.val, nil
}

// gen compiles a term: a value (one or none) for a bound term, an iterator
// for a ref whose keys are unbound vars (which it binds).
func (s *regocScope) gen(t *ast.Term) (regocTerm, error) {
	val := func(v regocVal, err error) (regocTerm, error) { return regocTerm{val: v}, err }
	switch v := t.Value.(type) {
	case ast.Null, ast.Boolean, ast.Number, ast.String:
		return val(constVal(t), nil)
	case ast.Var:
		if isInput(v) {
			return val(inputVal, nil)
		}
		if !s.isBound(v) {
			return regocTerm{}, fmt.Errorf("unbound var %v", v)
		}
		return val(slotVal(s.slots[v]), nil)
	case ast.Ref:
		return s.ref(v)
	case *ast.Array:
		elems, err := s.grounds(v.Len(), v.Elem)
		if err != nil || t.IsGround() {
			return val(constVal(t), err)
		}
		return val(arrayVal(elems), nil)
	case ast.Set:
		terms := v.Slice()
		elems, err := s.grounds(len(terms), func(i int) *ast.Term { return terms[i] })
		if err != nil || t.IsGround() {
			return val(constVal(t), err)
		}
		return val(setVal(elems), nil)
	case ast.Object:
		keys := v.Keys()
		ks, err := s.grounds(len(keys), func(i int) *ast.Term { return keys[i] })
		if err != nil {
			return regocTerm{}, err
		}
		vs, err := s.grounds(len(keys), func(i int) *ast.Term { return v.Get(keys[i]) })
		if err != nil || t.IsGround() {
			return val(constVal(t), err)
		}
		return val(objectVal(ks, vs), nil)
	case *ast.ArrayComprehension:
		return val(s.comprehension(v.Body, []*ast.Term{v.Term}, func(gs []regocVal, b *regocBody) regocVal { return arrayCompVal(gs[0], b) }))
	case *ast.SetComprehension:
		return val(s.comprehension(v.Body, []*ast.Term{v.Term}, func(gs []regocVal, b *regocBody) regocVal { return setCompVal(gs[0], b) }))
	case *ast.ObjectComprehension:
		return val(s.comprehension(v.Body, []*ast.Term{v.Key, v.Value}, func(gs []regocVal, b *regocBody) regocVal {
			return objectCompVal(gs[0], gs[1], b, t.Location)
		}))
	default:
		return regocTerm{}, fmt.Errorf("%T term", t.Value)
	}
}

func (s *regocScope) grounds(n int, at func(int) *ast.Term) ([]regocVal, error) {
	out := make([]regocVal, n)
	for i := range n {
		g, err := s.ground(at(i))
		if err != nil {
			return nil, err
		}
		out[i] = g
	}
	return out, nil
}

// comprehension compiles a comprehension's body in a nested scope: the vars
// it binds stay inside.
func (s *regocScope) comprehension(body ast.Body, heads []*ast.Term, mk func([]regocVal, *regocBody) regocVal) (regocVal, error) {
	saved := s.snapshot()
	defer s.restore(saved)
	b, err := s.body(body)
	if err != nil {
		return nil, err
	}
	gs, err := s.grounds(len(heads), func(i int) *ast.Term { return heads[i] })
	if err != nil {
		return nil, err
	}
	return mk(gs, b), nil
}

// ref compiles a reference into input, into a bound var or into a helper
// set (data.…). A key that is an unbound var iterates (and binds it); a
// key that is bound, or a scalar, looks up.
func (s *regocScope) ref(r ast.Ref) (regocTerm, error) {
	rr := &regocRef{}
	switch v := r[0].Value.(type) {
	case ast.Var:
		switch {
		case isInput(v):
			rr.head = inputVal
		case s.isBound(v):
			rr.head = slotVal(s.slots[v])
		case v.Equal(ast.DefaultRootDocument.Value):
			virt, n, err := s.pc.virtualOf(r)
			if err != nil {
				return regocTerm{}, err
			}
			rr.head, r = virt.val, r[n-1:]
		default:
			return regocTerm{}, fmt.Errorf("ref %v", r)
		}
	default:
		return regocTerm{}, fmt.Errorf("ref %v", r)
	}
	iterates := false
	for _, k := range r[1:] {
		switch kv := k.Value.(type) {
		case ast.Var:
			switch {
			case s.isBound(kv):
				rr.steps = append(rr.steps, regocKey{key: slotVal(s.slots[kv])})
			case isInput(kv):
				rr.steps = append(rr.steps, regocKey{key: inputVal})
			default:
				i := s.slot(kv)
				s.bound[i] = true
				rr.steps = append(rr.steps, regocKey{bind: i, iterate: true})
				iterates = true
			}
		default:
			if !k.IsGround() {
				return regocTerm{}, fmt.Errorf("ref key %v", k)
			}
			rr.steps = append(rr.steps, regocKey{key: constVal(k)})
		}
	}
	if iterates {
		return regocTerm{iter: rr}, nil
	}
	return regocTerm{val: rr.val}, nil
}

// regocExplain lists, for CHATLINT_REGO_EVAL=explain, which packages run
// compiled and why the others do not.
func Explain(c *ast.Compiler, compiled []*Package, rest []string) string {
	var b strings.Builder
	for _, p := range compiled {
		fmt.Fprintf(&b, "rego: %s: compiled\n", strings.TrimPrefix(p.Path, "data."))
	}
	for _, pkg := range rest {
		fmt.Fprintf(&b, "rego: %s: topdown: %v\n", strings.TrimPrefix(pkg, "data."), regocWhy(c, pkg))
	}
	return b.String()
}

// actionSet is the set cleanup packs' actions are read from (policy's
// actions.go names it too).
const actionSet = "actions"

// noMetrics is what the built-ins are given to record into: nothing.
var noMetrics = metrics.NoOp()
