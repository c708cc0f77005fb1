package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// A rule that hands a message to a function of its package (same(p, m),
// usable(m)) used to read the message whole: a variable given to a call was
// a use of all of it. A call of a function the modules define is followed
// instead: the function's body is read with each parameter standing for
// the part of input its argument stands for, so what the body reads of it
// (m.tool_calls, object.get(m.raw, "content", …)) is what the call reads.
// A parameter the body uses otherwise than through refs is read whole
// there, as any variable is; a parameter that is no variable (a pattern)
// reads its argument whole.

// funcIndex maps a function's path (data.pkg.name) to its rules.
type funcIndex map[string][]*ast.Rule

// funcsOf indexes the functions of mods.
func funcsOf(mods ...*ast.Module) funcIndex {
	fns := funcIndex{}
	for _, m := range mods {
		for _, r := range m.Rules {
			if len(r.Head.Args) == 0 || !r.Head.Ref().IsGround() {
				continue
			}
			k := rulePath(r).String()
			fns[k] = append(fns[k], r)
		}
	}
	return fns
}

// maxCallDepth bounds the calls followed inside one another (Rego has no
// recursion; this only bounds the work): deeper, a call reads its
// arguments whole.
const maxCallDepth = 16

// funcCalls are the functions a module's rules call, and the calls already
// followed (a function and the paths of its arguments), so that a function
// called from many places with the same arguments is read once.
type funcCalls struct {
	fns  funcIndex
	done map[string]bool
}

// of returns the rules of the function e calls, nil when e calls none of
// the modules' functions.
func (c *funcCalls) of(e *ast.Expr) []*ast.Rule {
	if c == nil || !e.IsCall() {
		return nil
	}
	return c.fns[e.Operator().String()]
}

// args are the operands of e that are arguments: a call of a function of
// the modules may have one more, the variable its result is bound to.
func (c *funcCalls) args(e *ast.Expr) []*ast.Term {
	ops := e.Operands()
	if rules := c.of(e); rules != nil && len(ops) > len(rules[0].Head.Args) {
		return ops[:len(rules[0].Head.Args)]
	}
	if kindTests[e.Operator().String()] && len(ops) > 1 {
		return ops[:1]
	}
	return ops
}

// kindTests are the built-in functions that read only their operand's
// kind: the builder keeps the kind of everything it keeps (a stand-in of
// raw keeps it too), so they look at the value (it must be there) but read
// nothing of what lies in it.
var kindTests = map[string]bool{
	"is_object": true, "is_array": true, "is_string": true, "is_number": true, "is_boolean": true,
	"is_null": true, "is_set": true, "type_name": true,
}

// kindTest records the uses in a kind test of a part of input, and reports
// whether e is one.
func (a *ruleReads) kindTest(e *ast.Expr) bool {
	if !kindTests[e.Operator().String()] || len(e.Operands()) == 0 {
		return false
	}
	ops := e.Operands()
	if a.paths(ops[0]) == nil {
		return false
	}
	a.touchFirst(e, ops)
	return true
}

// call records the uses in a call of a function of the modules, following
// its body with its parameters bound to the parts of input its arguments
// stand for, and reports whether e is such a call.
func (a *ruleReads) call(e *ast.Expr) bool {
	rules := a.calls.of(e)
	if rules == nil || a.depth >= maxCallDepth {
		return false
	}
	args := a.calls.args(e)
	for _, r := range rules {
		for f := r; f != nil; f = f.Else {
			a.follow(f, r, args)
		}
	}
	for _, t := range e.Operands() {
		if a.paths(t) != nil {
			a.keys(t)
		} else {
			a.uses(t)
		}
	}
	for _, w := range e.With {
		a.uses(w)
	}
	return true
}

// follow reads the body of f (a rule of function r, or one of its else
// branches) with its parameters bound to the paths of args.
func (a *ruleReads) follow(f, r *ast.Rule, args []*ast.Term) {
	params := f.Head.Args
	if len(params) == 0 {
		params = r.Head.Args
	}
	bound := map[ast.Var]map[string][]string{}
	var key strings.Builder
	fmt.Fprintf(&key, "%p", f)
	for k, arg := range args {
		ps := a.paths(arg)
		if ps == nil || k >= len(params) {
			continue
		}
		v, ok := params[k].Value.(ast.Var)
		if _, twice := bound[v]; !ok || twice {
			a.mark(ps, true) // a pattern, or a variable named twice: read whole
			continue
		}
		bound[v] = ps
		keys := make([]string, 0, len(ps))
		for p := range ps {
			keys = append(keys, p)
		}
		slices.Sort(keys)
		key.WriteString("\x01" + string(v) + "\x02" + strings.Join(keys, "\x03"))
	}
	if len(bound) == 0 {
		return // no part of input given: the body's own reads are found at its rule
	}
	k := key.String()
	if a.calls.done[k] {
		return
	}
	a.calls.done[k] = true
	sub := newRuleReads(f, a.out, a.calls)
	sub.params, sub.depth = bound, a.depth+1
	sub.run()
}

// A rule whose value is a list of elements of input's lists (results := [m
// | some m in input.messages; m.role == "tool"]) is followed the same way:
// it stands for those lists (input.messages), which it holds a part of in
// their order, so a rule iterating it (some r in results) reads what it
// reads of each r, and the list's own rule does not read its elements whole
// by holding them. Its length is the one its own rule's body decides,
// from what that body reads; a use of the whole list (compared, handed on)
// reads the lists whole. Not a set: a set's elements are told apart by
// their whole value.

// elemRule is such a rule: its path, and the paths of the lists of input
// its elements are elements of.
type elemRule struct {
	path  ast.Ref
	lists map[string][]string
}

// elemComp returns the variable a rule's comprehension holds, when the
// rule's value is that comprehension (compiled, `x := [m | …]` is `x := v
// if { v = [m | …] }`), nil for any other rule.
func elemComp(r *ast.Rule) *ast.Term {
	if len(r.Head.Args) > 0 || r.Head.Key != nil || r.Head.Value == nil || r.Else != nil || !r.Head.Ref().IsGround() {
		return nil
	}
	v, ok := r.Head.Value.Value.(ast.Var)
	if !ok || len(r.Body) != 1 {
		return nil
	}
	e := r.Body[0]
	if !(e.IsEquality() || e.IsAssignment()) || e.Negated || len(e.With) > 0 {
		return nil
	}
	l, c := e.Operand(0), e.Operand(1)
	if l.Value.Compare(v) != 0 {
		l, c = c, l
	}
	if l.Value.Compare(v) != 0 {
		return nil
	}
	comp, ok := c.Value.(*ast.ArrayComprehension)
	if !ok {
		return nil
	}
	held := comp.Term
	if _, ok := held.Value.(ast.Var); !ok {
		return nil
	}
	return held
}

// elemRules finds the rules of mods whose elements are parts of input.
// One rule's elements may be another's (kept := [r | some r in results]),
// so they are found to a fixed point.
func elemRules(mods []*ast.Module, fns funcIndex) []elemRule {
	var out []elemRule
	found := map[*ast.Rule]bool{}
	for range 8 {
		grew := false
		for _, m := range mods {
			for _, r := range m.Rules {
				head := elemComp(r)
				if head == nil || found[r] {
					continue
				}
				a := newRuleReads(r, &readTree{}, &funcCalls{fns: fns, done: map[string]bool{}})
				a.elems = out
				a.holds = head.Value.(ast.Var)
				a.bindOnly()
				if lists := listsOf(a.env[a.holds]); lists != nil {
					out = append(out, elemRule{path: rulePath(r), lists: lists})
					found[r] = true
					grew = true
				}
			}
		}
		if !grew {
			break
		}
	}
	return out
}

// listsOf returns the lists the element paths ps are elements of (each
// path without its last "*"), nil when one is no list's element.
func listsOf(ps map[string][]string) map[string][]string {
	if len(ps) == 0 {
		return nil
	}
	out := make(map[string][]string, len(ps))
	for _, p := range ps {
		if len(p) == 0 || p[len(p)-1] != "*" {
			return nil
		}
		q := p[:len(p)-1]
		out[strings.Join(q, "\x00")] = q
	}
	return out
}

// elemPaths returns the lists of input a ref to one of the element rules
// stands for and the rest of the ref after the rule (an element picked
// from it, and what is read of that element); ok is false when ref names
// none of them.
func (a *ruleReads) elemPaths(ref ast.Ref) (map[string][]string, ast.Ref, bool) {
	for _, e := range a.elems {
		if len(ref) >= len(e.path) && ref[:len(e.path)].Equal(e.path) {
			return e.lists, ref[len(e.path):], true
		}
	}
	return nil, nil, false
}

// rulePath is the ref of the document r produces, up to the first variable
// of its head (what ast.Rule.Path gives; that method is deprecated for ref
// rules, whose variable part this analysis does not key on).
func rulePath(r *ast.Rule) ast.Ref {
	return r.Module.Package.Path.Extend(r.Head.Ref().GroundPrefix())
}
