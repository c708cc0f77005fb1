package policy

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"

	"github.com/chatlint/chatlint/engine/policy/regoc"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// regocProgram evaluates the record sets of the packages it compiled as
// closures; topdown evaluates the others' (rego_sets.go). Their elements
// join the others' before they are ordered and read (evalSets), so the
// findings come in the order and with the dedupe topdown alone gives.
type regocProgram struct {
	pkgs []*regoc.Package
	// actions are pkgs with their actions set alone (nil where a package
	// has none): what is evaluated of a package whose pack does not apply
	// to the document (scoped).
	actions []*regoc.Package
	caps    *ast.Capabilities
	// sets names, for the (pack, set) of the compiled packages, the entry
	// of regoProgram.sets that its elements are read as.
	sets map[regoc.SetKey]*regoSet
	// fallbacks counts the documents left to topdown after an error (for
	// the tests: a comparison where every document falls back proves
	// nothing).
	fallbacks atomic.Int64
}

// prepareRegoc compiles what it can of the record sets; nil when nothing
// compiles or CHATLINT_REGO_EVAL=topdown.
func prepareRegoc(c *ast.Compiler, pkgPack map[string]string) (*regocProgram, error) {
	if regoc.Disabled() {
		return nil, nil
	}
	compiled, rest := regoc.CompilePackages(c, pkgPack)
	if os.Getenv(regoc.EnvVar) == "explain" {
		fmt.Fprint(os.Stderr, regoc.Explain(c, compiled, rest))
	}
	if len(compiled) == 0 {
		return nil, nil
	}
	actions := make([]*regoc.Package, len(compiled))
	for i, p := range compiled {
		actions[i] = p.Actions()
	}
	return &regocProgram{pkgs: compiled, actions: actions, caps: c.Capabilities(), sets: map[regoc.SetKey]*regoSet{}}, nil
}

// scoped returns the packages the closures evaluate on a document of the
// format under the profile: whole where their pack applies (packOpen),
// else their actions alone, as topdown evaluates the sets (openSets). A
// finding of a pack that does not apply would be dropped, and evaluating
// its rules anyway handed a long session's every message and line to the
// built-ins they call (the finetune pack's example-too-long counts the
// tokens of input: a Claude Code session under --profile openai was built
// whole as OPA objects for it).
func (p *regoProgram) scoped(format, profile string) []*regoc.Package {
	rp := p.regoc
	out := make([]*regoc.Package, 0, len(rp.pkgs))
	for i, pkg := range rp.pkgs {
		switch {
		case p.packOpen(pkg.Pack(), format, profile):
			out = append(out, pkg)
		case rp.actions[i] != nil:
			out = append(out, rp.actions[i])
		}
	}
	return out
}

// take marks the sets of the compiled packages in sets, which topdown then
// evaluates only on a document the closures fail on.
func (rp *regocProgram) take(sets []regoSet) {
	if rp == nil {
		return
	}
	mine := map[string]bool{}
	for _, p := range rp.pkgs {
		mine[p.Path] = true
	}
	for i := range sets {
		s := &sets[i]
		if !mine[s.pkg] {
			continue
		}
		s.compiled = true
		if k := (regoc.SetKey{Pack: s.pack, Set: s.name}); rp.sets[k] == nil {
			rp.sets[k] = s
		}
	}
}

// covers reports whether the closures evaluate every set that the program
// evaluates on a document of the format under the profile (openSets): the
// sets of the packs that apply there, and every action set. Topdown then
// runs on such a document only when the closures fail on it, whatever the
// packs that do not apply there leave to it (a claude-code session is
// given to no set of the batch or finetune packs).
func (p *regoProgram) covers(format, profile string) bool {
	if p.regoc == nil {
		return false
	}
	for i := range p.sets {
		s := &p.sets[i]
		if !s.compiled && (s.name == actionSet || p.packOpen(s.pack, format, profile)) {
			return false
		}
	}
	return true
}

// collect evaluates the compiled packages pkgs (scoped) over one input
// and adds their elements to run.items. ok is false when the closures met
// an error other than cancellation (a conflict, a built-in that halts):
// then topdown evaluates those packages' sets too, and says what the error
// is in its own words.
func (rp *regocProgram) collect(ctx context.Context, run *regoRun, pkgs []*regoc.Package, input ast.Value, cancel topdown.Cancel) (ok bool, err error) {
	groups := map[regoc.SetKey]ast.Set{}
	if err := regoc.Eval(ctx, pkgs, input, cancel, rp.caps, groups); err != nil {
		if err == regoc.ErrCancelled {
			return false, err
		}
		rp.fallbacks.Add(1)
		return false, nil
	}
	for k, s := range groups {
		set := rp.sets[k]
		if set == nil { // no rule tree node: cannot happen for a compiled rule, but never drop
			set = &regoSet{pack: k.Pack, name: k.Set, sev: setSeverity[k.Set]}
			rp.sets[k] = set
		}
		s.Foreach(func(t *ast.Term) { run.items = append(run.items, regoItem{set, t.Value}) })
	}
	return true, nil
}
