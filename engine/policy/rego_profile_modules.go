package policy

import (
	"maps"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Under a provider profile a pack set's program need not hold the modules
// of the other providers: the finetune pack's bedrock, mistral and
// together files are half its Rego, and each of their finding rules opens
// with `input.profile == "<its provider>"`, so under --profile openai they
// give no document anything. profileModules leaves such a module out of
// the modules a pack set's program compiles (rego_packset.go) when:
//
//   - every rule of it that writes to a set evaluated per document or per
//     dataset document (deny, warn, info, actions, dataset_*) has, among
//     the expressions of its body, input.profile == "<name>" with another
//     name than the run's profile, not negated, with no `with`, and no
//     else;
//   - no module kept names a rule or function it defines (a name used
//     anywhere in a rule of a kept module, besides that rule's own name,
//     keeps every module defining it), until no more are kept;
//   - and no module refers to data: the packages' rules reach each other
//     by name only.
//
// A module with no set rule is kept: it defines only what others call.

// profileModules returns the modules a program evaluated under profile
// needs (modules itself when it needs them all).
func profileModules(modules map[string]*ast.Module, profile string) map[string]*ast.Module {
	drop := map[string]bool{}
	for name, m := range modules {
		if refersToData(m) {
			return modules
		}
		if otherProfileOnly(m, profile) {
			drop[name] = true
		}
	}
	for changed := len(drop) > 0; changed; {
		changed = false
		used := map[ast.Var]bool{}
		for name, m := range modules {
			if !drop[name] {
				for _, r := range m.Rules {
					usedVars(r, used)
				}
			}
		}
		for name := range drop {
			if slices.ContainsFunc(modules[name].Rules, func(r *ast.Rule) bool { return used[ruleName(r)] }) {
				delete(drop, name)
				changed = true
			}
		}
	}
	if len(drop) == 0 {
		return modules
	}
	kept := maps.Clone(modules)
	for name := range drop {
		delete(kept, name)
	}
	return kept
}

// refersToData reports whether a rule or import of m names data.
func refersToData(m *ast.Module) bool {
	for _, imp := range m.Imports {
		if r, ok := imp.Path.Value.(ast.Ref); ok && r[0].Equal(ast.DefaultRootDocument) {
			return true
		}
	}
	found := false
	for _, r := range m.Rules {
		ast.WalkRefs(r, func(ref ast.Ref) bool {
			found = found || ref[0].Equal(ast.DefaultRootDocument)
			return found
		})
		if found {
			return true
		}
	}
	return false
}

// otherProfileOnly reports whether m has set rules and every one of them
// holds only under a profile other than profile.
func otherProfileOnly(m *ast.Module, profile string) bool {
	sets := 0
	for _, r := range m.Rules {
		if !evaluatedSet(ruleName(r)) {
			continue
		}
		sets++
		if r.Else != nil || !guardedOff(r.Body, profile) {
			return false
		}
	}
	return sets > 0
}

// evaluatedSet reports whether a rule of that name writes to a set the
// engine queries.
func evaluatedSet(name ast.Var) bool {
	s := string(name)
	_, rec := setSeverity[s]
	_, ds := datasetSets[s]
	return rec || ds || s == actionSet
}

// inputProfile is the ref a guard compares.
var inputProfile = ast.MustParseRef("input.profile")

// guardedOff reports whether body has input.profile == "<name>" (or "<name>"
// == input.profile) for a name other than profile.
func guardedOff(body ast.Body, profile string) bool {
	for _, e := range body {
		if e.Negated || len(e.With) > 0 || !e.IsCall() || len(e.Operands()) != 2 {
			continue
		}
		if op := e.Operator(); !op.Equal(ast.Equal.Ref()) && !op.Equal(ast.Equality.Ref()) {
			continue
		}
		a, b := e.Operand(0), e.Operand(1)
		if r, ok := b.Value.(ast.Ref); ok && r.Equal(inputProfile) {
			a, b = b, a
		}
		r, ok := a.Value.(ast.Ref)
		s, isStr := b.Value.(ast.String)
		if ok && isStr && r.Equal(inputProfile) && string(s) != profile {
			return true
		}
	}
	return false
}

// ruleName is the name a rule defines (the first term of its head's ref).
func ruleName(r *ast.Rule) ast.Var {
	ref := r.Head.Ref()
	if len(ref) == 0 {
		return ""
	}
	v, _ := ref[0].Value.(ast.Var)
	return v
}

// usedVars adds to used every variable r and its else branches name, but
// the name r defines.
func usedVars(r *ast.Rule, used map[ast.Var]bool) {
	walk := func(x any) {
		ast.WalkVars(x, func(v ast.Var) bool {
			used[v] = true
			return false
		})
	}
	for ; r != nil; r = r.Else {
		walk(r.Body)
		if r.Head.Key != nil {
			walk(r.Head.Key)
		}
		if r.Head.Value != nil {
			walk(r.Head.Value)
		}
		for _, a := range r.Head.Args {
			walk(a)
		}
		if ref := r.Head.Ref(); len(ref) > 1 {
			for _, t := range ref[1:] {
				walk(t)
			}
		}
	}
}
