package policy

import (
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// regoPaths adds the paths of input the rules of a compiled module may read,
// following the calls of the module's own functions.
func regoPaths(m *ast.Module, t *readTree) {
	fns := funcsOf(m)
	regoPathsWith(m, t, fns, elemRules([]*ast.Module{m}, fns))
}

// regoPathsAll is regoPaths of every module of one compile, each following
// the functions and element rules of them all, one module after another.
func regoPathsAll(mods []*ast.Module, t *readTree) {
	fns := funcsOf(mods...)
	elems := elemRules(mods, fns)
	for _, m := range mods {
		regoPathsWith(m, t, fns, elems)
	}
}

// regoPathsWith is regoPaths following the calls of the functions fns
// holds and the rules elems names (those of every module compiled with m).
func regoPathsWith(m *ast.Module, t *readTree, fns funcIndex, elems []elemRule) {
	calls := &funcCalls{fns: fns, done: map[string]bool{}}
	for _, r := range m.Rules {
		for ; r != nil; r = r.Else {
			a := newRuleReads(r, t, calls)
			a.elems = elems
			if head := elemComp(r); head != nil {
				if _, _, ok := a.elemPaths(rulePath(r)); ok {
					a.holds = head.Value.(ast.Var)
				}
			}
			a.run()
		}
	}
}

// ruleReads follows input through one rule. The compiler has renamed every
// local variable apart and rewritten `some x in xs`, `:=` and iteration into
// unifications with refs, so a variable bound once to a part of input (x =
// input.messages[i]) is followed through the refs it heads (x.role); any
// other use of such a variable, or of input, is a read of all of it.
type ruleReads struct {
	r   *ast.Rule
	out *readTree
	// bare counts each variable's occurrences other than as the head of a
	// ref, safe those of them that only pass it on: as the source of
	// another variable bound once (y = x), or the object of object.get. A
	// variable bound to input once is followed only when its binding is its
	// one other bare occurrence.
	bare, safe map[ast.Var]int
	// env maps a followed variable to the paths it may stand for.
	env map[ast.Var]map[string][]string
	// binds are the exprs (and every) that bind a variable to input.
	binds map[any]bool
	// counted are the assignments of an array comprehension whose value
	// is only counted, and their comprehensions.
	counted map[*ast.Expr]*ast.ArrayComprehension
	// calls are the functions a call is followed into (fielduse_funcs.go);
	// params, when the rule is a function followed from a call, the parts
	// of input its parameters stand for there.
	calls  *funcCalls
	params map[ast.Var]map[string][]string
	depth  int
	// elems are the rules whose elements are parts of input
	// (fielduse_funcs.go); holds, when the rule is one of them, the
	// variable its comprehension holds, which is no use of it.
	elems []elemRule
	holds ast.Var
}

func newRuleReads(r *ast.Rule, out *readTree, calls *funcCalls) *ruleReads {
	return &ruleReads{r: r, out: out, bare: map[ast.Var]int{}, safe: map[ast.Var]int{}, env: map[ast.Var]map[string][]string{}, binds: map[any]bool{},
		counted: map[*ast.Expr]*ast.ArrayComprehension{}, calls: calls}
}

var (
	inputVar = ast.InputRootDocument.Value.(ast.Var)
	rootPath = map[string][]string{"": nil}
)

func (a *ruleReads) run() {
	if !a.bindOnly() {
		a.out.add(nil, true)
		return
	}
	if a.params == nil {
		a.uses(a.r)
		return
	}
	// A function followed from a call: its parameters are the call's
	// arguments, not uses of them.
	a.uses(a.r.Body)
	if a.r.Head.Key != nil {
		a.uses(a.r.Head.Key)
	}
	if a.r.Head.Value != nil {
		a.uses(a.r.Head.Value)
	}
}

// bindOnly finds the variables bound to parts of input (env) and reports
// whether it could: false for a cycle of bindings, which reads everything.
func (a *ruleReads) bindOnly() bool {
	if a.holds != "" {
		a.safe[a.holds]++ // held by the rule's comprehension: no use of it
	}
	ast.NewGenericVisitor(func(x any) bool {
		switch x := x.(type) {
		case ast.Ref:
			if v, ok := x[0].Value.(ast.Var); ok {
				a.bare[v]-- // counted again below as a Var: the head is not bare
			}
		case ast.Var:
			a.bare[x]++
		}
		return false
	}).Walk(a.r)
	// The compiler binds an every's domain to a generated variable
	// (__local1__ = input.messages; every m in __local1__ { … }): the every
	// only iterates it, as bindAll follows. Counted first, so that an alias
	// passing it on (__local1__ = ms) is seen to be its one other use.
	ast.WalkExprs(a.r, func(e *ast.Expr) bool {
		if ev, ok := e.Terms.(*ast.Every); ok {
			if v, ok := ev.Domain.Value.(ast.Var); ok {
				a.safe[v]++
			}
		}
		return false
	})
	ast.WalkExprs(a.r, func(e *ast.Expr) bool {
		if e.IsCall() && e.Operator().String() == "object.get" && len(e.Operands()) >= 2 {
			if v, ok := e.Operand(0).Value.(ast.Var); ok {
				a.safe[v]++
			}
		}
		if isCount(e) {
			if v, ok := e.Operand(0).Value.(ast.Var); ok {
				a.safe[v]++
			}
		}
		if e.IsCall() && (kindTests[e.Operator().String()] || a.calls.of(e) != nil) {
			// A kind test reads its operand's kind, and a function
			// followed from its call reads what its body reads: neither
			// is a use of the whole (call, kindTest).
			for _, t := range a.calls.args(e) {
				if v, ok := t.Value.(ast.Var); ok {
					a.safe[v]++
				}
			}
		}
		if e.IsCall() {
			for k := range builtinDocumentReads[e.Operator().String()] {
				if v, ok := e.Operand(k).Value.(ast.Var); ok && k < len(e.Operands()) {
					a.safe[v]++
				}
			}
		}
		if !(e.IsEquality() || e.IsAssignment()) || e.Negated || len(e.With) > 0 {
			return false
		}
		l, lok := e.Operand(0).Value.(ast.Var)
		r, rok := e.Operand(1).Value.(ast.Var)
		switch {
		case !lok || !rok:
		case a.bare[l]-a.safe[l] == 1:
			a.safe[r]++
		case a.bare[r]-a.safe[r] == 1:
			a.safe[l]++
		}
		return false
	})
	// An array comprehension whose value is only counted (X = [c | …];
	// count(X)) uses its head for the number of its solutions only: the
	// head's occurrence there only passes it on, and what the body reads
	// is all the count reads.
	ast.WalkExprs(a.r, func(e *ast.Expr) bool {
		x, comp := comprehensionOf(e)
		if comp == nil || a.bare[x]-a.safe[x] != 1 {
			return false
		}
		if v, ok := comp.Term.Value.(ast.Var); ok {
			a.safe[v]++
		}
		a.counted[e] = comp
		return false
	})
	for v, ps := range a.params {
		a.env[v] = ps
	}
	// Bind to a fixed point: a binding may follow another one written after it.
	for i := 0; ; i++ {
		if i == 32 { // a cycle of bindings: give up, everything is read
			return false
		}
		if !a.bindAll() {
			break
		}
	}
	return true
}

// bindAll does one pass over the rule's bindings and reports whether env
// grew.
func (a *ruleReads) bindAll() bool {
	grew := false
	ast.NewGenericVisitor(func(x any) bool {
		switch x := x.(type) {
		case *ast.Expr:
			if v, src, ok := a.binding(x); ok {
				a.binds[x] = true
				grew = a.bind(v, a.paths(src), nil) || grew
			}
		case *ast.Every:
			if v, ok := a.bindable(x.Value); ok {
				if ps := a.paths(x.Domain); ps != nil {
					a.binds[x] = true
					grew = a.bind(v, ps, []string{"*"}) || grew
				}
			}
		}
		return false
	}).Walk(a.r)
	return grew
}

func (a *ruleReads) bind(v ast.Var, ps map[string][]string, suffix []string) bool {
	m := a.env[v]
	if m == nil {
		m = map[string][]string{}
		a.env[v] = m
	}
	grew := false
	for _, p := range ps {
		q := append(append([]string(nil), p...), suffix...)
		k := strings.Join(q, "\x00")
		if _, ok := m[k]; !ok {
			m[k] = q
			grew = true
		}
	}
	return grew
}

// binding reports whether e unifies a variable that occurs nowhere else bare
// with a part of input, returning the variable and that part.
func (a *ruleReads) binding(e *ast.Expr) (ast.Var, *ast.Term, bool) {
	if !(e.IsEquality() || e.IsAssignment()) || e.Negated || len(e.With) > 0 {
		return "", nil, false
	}
	l, r := e.Operand(0), e.Operand(1)
	if v, ok := a.bindable(l); ok && a.paths(r) != nil {
		return v, r, true
	}
	if v, ok := a.bindable(r); ok && a.paths(l) != nil {
		return v, l, true
	}
	return "", nil, false
}

func (a *ruleReads) bindable(t *ast.Term) (ast.Var, bool) {
	v, ok := t.Value.(ast.Var)
	if !ok || v == inputVar || v.Equal(ast.DefaultRootDocument.Value) || a.bare[v]-a.safe[v] != 1 {
		return "", false
	}
	return v, true
}

// paths returns the paths of input t stands for: input itself, a followed
// variable, or a ref headed by one (a constant string member names the
// member, anything else is any member); nil when t is none of those.
func (a *ruleReads) paths(t *ast.Term) map[string][]string {
	var head ast.Var
	var rest ast.Ref
	switch x := t.Value.(type) {
	case ast.Var:
		head = x
	case ast.Ref:
		v, ok := x[0].Value.(ast.Var)
		if !ok {
			return nil
		}
		head, rest = v, x[1:]
		if v.Equal(ast.DefaultRootDocument.Value) {
			base, more, ok := a.elemPaths(x)
			if !ok {
				return nil
			}
			return extendRef(base, more)
		}
	default:
		return nil
	}
	var base map[string][]string
	if head == inputVar {
		base = rootPath
	} else if base = a.env[head]; len(base) == 0 {
		return nil
	}
	return extendRef(base, rest)
}

// extendRef is each path of base followed by the ref rest (a constant
// string names a member, anything else is any member).
func extendRef(base map[string][]string, rest ast.Ref) map[string][]string {
	if len(rest) == 0 {
		return base
	}
	suffix := make([]string, len(rest))
	for i, s := range rest {
		suffix[i] = "*"
		if str, ok := s.Value.(ast.String); ok {
			suffix[i] = string(str)
		}
	}
	out := make(map[string][]string, len(base))
	for _, p := range base {
		q := append(append([]string(nil), p...), suffix...)
		out[strings.Join(q, "\x00")] = q
	}
	return out
}

// mark records every path of ps, whole when full.
func (a *ruleReads) mark(ps map[string][]string, full bool) {
	for _, p := range ps {
		if debugMark != nil && full {
			debugMark(a.r, p)
		}
		a.out.add(p, full)
	}
}

// uses walks x and records what each part of input found in it is used for.
func (a *ruleReads) uses(x any) {
	ast.NewGenericVisitor(func(x any) bool {
		switch x := x.(type) {
		case *ast.Expr:
			return a.expr(x)
		case *ast.Every:
			if a.binds[x] {
				a.touch(x.Domain)
				a.uses(x.Body)
				return true
			}
		case *ast.Term:
			if v, ok := x.Value.(ast.Var); ok && v == a.holds && len(a.env[v]) > 0 {
				return true // the element a rule of elements holds (elemRules)
			}
			if ps := a.paths(x); ps != nil {
				a.mark(ps, true)
				a.keys(x)
				return true
			}
		case *ast.With:
			a.uses(x.Value) // the target is written, not read
			return true
		}
		return false
	}).Walk(x)
}

// expr records the uses in one expression; it reports whether it has
// walked all of e.
func (a *ruleReads) expr(e *ast.Expr) bool {
	if a.binds[e] {
		for _, t := range e.Operands() {
			if a.paths(t) != nil {
				a.touch(t)
			}
		}
		for _, w := range e.With {
			a.uses(w)
		}
		return true
	}
	if comp := a.counted[e]; comp != nil {
		a.uses(comp.Body)
		return true
	}
	if e.IsCall() && a.documentReads(e) {
		return true
	}
	if e.IsCall() && (a.kindTest(e) || a.call(e)) {
		return true
	}
	if isCount(e) && a.countsList(e) {
		return true
	}
	if e.IsCall() && e.Operator().String() == "object.get" && len(e.Operands()) >= 2 {
		ops := e.Operands()
		if ps := a.paths(ops[0]); ps != nil {
			a.mark(extend(ps, constKeys(ops[1])), true)
			a.keys(ops[0])
			for _, t := range ops[1:] {
				a.uses(t)
			}
			for _, w := range e.With {
				a.uses(w)
			}
			return true
		}
	}
	return false
}

// touch records that the part of input t stands for is looked at (it must
// be there), and walks the keys of its ref, which are used as values.
func (a *ruleReads) touch(t *ast.Term) {
	a.mark(a.paths(t), false)
	a.keys(t)
}

// keys walks the elements of a ref after its head: a part of input used as
// a key is read whole.
func (a *ruleReads) keys(t *ast.Term) {
	if r, ok := t.Value.(ast.Ref); ok {
		for _, k := range r[1:] {
			a.uses(k)
		}
	}
}

// constKeys returns the path an object.get key names: a string, or an array
// of strings; nil (the whole object) for anything else.
func constKeys(t *ast.Term) []string {
	switch k := t.Value.(type) {
	case ast.String:
		return []string{string(k)}
	case *ast.Array:
		out := make([]string, 0, k.Len())
		for i := 0; i < k.Len(); i++ {
			s, ok := k.Elem(i).Value.(ast.String)
			if !ok {
				return out // the path up to the first key that is not constant
			}
			out = append(out, string(s))
		}
		return out
	}
	return nil
}

func extend(ps map[string][]string, suffix []string) map[string][]string {
	out := make(map[string][]string, len(ps))
	for k, p := range ps {
		out[k] = append(append([]string(nil), p...), suffix...)
	}
	return out
}

// builtinDocumentReads names, for the custom functions that take a
// document, the members of it they read: chatlint.example_tokens counts the
// tokens of the messages and tools (engine/tokens, Counter.Document) and
// reads nothing else, so handing it input is no read of the entries.
var builtinDocumentReads = map[string]map[int][]string{
	"chatlint.example_tokens": {0: {"messages", "tools"}},
}

// documentReads records the uses in a call of one of builtinDocumentReads'
// functions, and reports whether e is such a call: the document operand
// reads the members the function reads, whole; the other operands are used
// as anywhere.
func (a *ruleReads) documentReads(e *ast.Expr) bool {
	reads, ok := builtinDocumentReads[e.Operator().String()]
	if !ok {
		return false
	}
	for k, t := range e.Operands() {
		members, doc := reads[k]
		ps := a.paths(t)
		if !doc || ps == nil {
			a.uses(t)
			continue
		}
		for _, m := range members {
			a.mark(extend(ps, []string{m}), true)
		}
		a.keys(t)
	}
	for _, w := range e.With {
		a.uses(w)
	}
	return true
}

// isCount reports whether e is a call of count.
func isCount(e *ast.Expr) bool {
	return e.IsCall() && e.Operator().String() == ast.Count.Name && len(e.Operands()) >= 1
}

// countedLists are the document's lists whose length does not depend on
// what the builder leaves out of their elements: a message, tool call or
// tool is there whatever members of it no rule reads. (Not raw's lists: a
// projection may stand one element for many.)
var countedLists = [][]string{
	{"messages"},
	{"tools"},
	{"messages", "*", "tool_calls"},
}

// countsList records the uses in count(X) where X is one of countedLists,
// and reports whether e is such a call: the count reads the list's length,
// which needs the list there, not its elements' members (counting the
// messages no more builds every member of every message, nor decodes the
// record whole for their raw).
func (a *ruleReads) countsList(e *ast.Expr) bool {
	ops := e.Operands()
	ps := a.paths(ops[0])
	if ps == nil {
		return false
	}
	for _, p := range ps {
		if !slices.ContainsFunc(countedLists, func(l []string) bool { return slices.Equal(l, p) }) {
			return false
		}
	}
	a.touchFirst(e, ops)
	return true
}

// comprehensionOf returns X and the comprehension of an assignment
// X = [head | body] (either way round), or nil.
func comprehensionOf(e *ast.Expr) (ast.Var, *ast.ArrayComprehension) {
	if !(e.IsEquality() || e.IsAssignment()) || e.Negated || len(e.With) > 0 {
		return "", nil
	}
	l, r := e.Operand(0), e.Operand(1)
	if _, ok := l.Value.(*ast.ArrayComprehension); ok {
		l, r = r, l
	}
	x, ok := l.Value.(ast.Var)
	comp, cok := r.Value.(*ast.ArrayComprehension)
	if !ok || !cok {
		return "", nil
	}
	return x, comp
}

var debugMark func(r *ast.Rule, p []string)

// touchFirst records a call e whose first operand ops[0] is only looked at
// (its length, kind or membership): its other operands and its with values
// are read as any value is.
func (a *ruleReads) touchFirst(e *ast.Expr, ops []*ast.Term) {
	a.touch(ops[0])
	for _, t := range ops[1:] {
		a.uses(t)
	}
	for _, w := range e.With {
		a.uses(w)
	}
}
