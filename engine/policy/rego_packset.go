package policy

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

// A run evaluates, on each document, only the Rego of the packs that apply
// to its format and profile (openSets), yet compiling every built-in pack's
// Rego on the first such document was most of a one-record contract file's
// work, and a fixed cost of every --profile openai run. With
// Options.LazyRego (only built-in Rego, whose tests compile it) a document
// gets a program of its packs alone: those with a Rego rule that applies to
// its format and profile (regoScope), and those whose Rego defines the
// actions set, which is evaluated wherever OPA runs. A file's dataset
// document gets the packs with a dataset rule that applies to it. Each such
// set of packs is compiled once, on the first document that needs it, and
// the documents are built with what that program reads (fields): a pack
// left out never runs on them. Under a profile, the modules that can give
// its documents nothing are left out too (rego_profile_modules.go). What a
// program evaluates on a document is what the program of every pack
// evaluates there (the sets of the packs left out are skipped by openSets,
// or their findings dropped outside their rules' formats and profiles), so
// the findings are the same.
//
// A pack of the user's is compiled with every other at once, as before:
// its errors, and those of its Rego beside the built-in packages, show
// before the run starts.

// packSet is a set of the engine's packs by index: byte i is 1 when
// packs[i] is in it. It is a string so that it can key a map.
type packSet string

// has reports whether pack i is in the set.
func (s packSet) has(i int) bool { return i < len(s) && s[i] == 1 }

// empty reports whether no pack is in the set.
func (s packSet) empty() bool {
	for i := range len(s) {
		if s[i] == 1 {
			return false
		}
	}
	return true
}

// packSetOf makes the set of the packs i that in(i) holds, of n packs.
func packSetOf(n int, in func(i int) bool) packSet {
	b := make([]byte, n)
	for i := range b {
		if in(i) {
			b[i] = 1
		}
	}
	return packSet(b)
}

// allSet is every pack with Rego: the program of allSet is the one
// program compiles.
func (c *compiledParts) allSet() packSet {
	return packSetOf(len(c.rego), func(i int) bool { return len(c.rego[i].files) > 0 })
}

// closeSet adds to set the packs that declare a package a pack of set
// declares: a package's sets are read as those of the first pack to
// declare it, and its rules may be in any of them.
func (c *compiledParts) closeSet(set packSet) packSet {
	in := []byte(set)
	for changed := true; changed; {
		changed = false
		for i := range c.rego {
			if in[i] == 1 {
				continue
			}
			for j := range c.rego {
				if in[j] == 1 && sharesPackage(c.rego[i].pkgs, c.rego[j].pkgs) {
					in[i], changed = 1, true
					break
				}
			}
		}
	}
	return packSet(in)
}

func sharesPackage(a, b []string) bool {
	for _, p := range a {
		if slices.Contains(b, p) {
			return true
		}
	}
	return false
}

// subsetPrograms are the programs compiled of some packs' modules, by
// the modules' names.
type subsetPrograms struct {
	mu sync.Mutex
	by map[string]*subsetProgram
}

// subsetProgram is the program of one pack set and what it reads of
// input; prog is nil when it does not compile (err says why).
type subsetProgram struct {
	once  sync.Once
	prog  *regoProgram
	reads *readTree
	err   error
}

func (s *subsetPrograms) get(modules string) *subsetProgram {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.by == nil {
		s.by = map[string]*subsetProgram{}
	}
	p := s.by[modules]
	if p == nil {
		p = &subsetProgram{}
		s.by[modules] = p
	}
	return p
}

// programOf returns the program of the packs of set (and of those sharing
// their packages) that documents evaluated under profile need, compiled
// once, and the input paths its rules may read. Under a profile, the
// modules that can give its documents nothing are left out
// (profileModules); "" keeps them all. The program of every pack is the
// one program compiles; it is given when set is every pack with Rego and
// no module is left out, or when a module of set reads data outside the
// set's packages (another pack's rules: only the whole program has them).
// prog is nil when it does not compile, or when the packs' Rego is not all
// parsed (progErr).
func (c *compiledParts) programOf(ctx context.Context, set packSet, profile string) (*regoProgram, *readTree, error) {
	set = c.closeSet(set)
	all := set == c.allSet()
	if !c.regoOK || all && profile == "" {
		return c.program(ctx), &c.regoReads, c.progErr
	}
	modules, pkgPack, err := c.modules(set)
	if err != nil {
		return nil, nil, err
	}
	if readsOtherData(modules, pkgPack) {
		return c.program(ctx), &c.regoReads, c.progErr
	}
	if profile != "" {
		kept := profileModules(modules, profile)
		if all && len(kept) == len(modules) {
			return c.program(ctx), &c.regoReads, c.progErr
		}
		modules = kept
	}
	names := slices.Sorted(maps.Keys(modules))
	sp := c.subsets.get(strings.Join(names, "\x00"))
	sp.once.Do(func() {
		sp.prog, err = compileRego(ctx, modules, pkgPack)
		if err != nil {
			sp.prog, sp.err = nil, err
			return
		}
		sp.reads = &readTree{}
		c.readRego(sp.prog, sp.reads)
	})
	return sp.prog, sp.reads, sp.err
}

// readsOtherData reports whether a module refers to data outside the
// packages of pkgPack: to a package of a pack that is not compiled with
// them, or to data as a whole.
func readsOtherData(modules map[string]*ast.Module, pkgPack map[string]string) bool {
	var pkgs []ast.Ref
	for p := range pkgPack {
		r, err := ast.ParseRef(p)
		if err != nil {
			return true
		}
		pkgs = append(pkgs, r)
	}
	other := false
	for _, m := range modules {
		ast.WalkRefs(m, func(r ast.Ref) bool {
			if other || !r[0].Equal(ast.DefaultRootDocument) {
				return other
			}
			if !slices.ContainsFunc(pkgs, func(p ast.Ref) bool { return r.HasPrefix(p) }) {
				other = true
			}
			return other
		})
		if other {
			return true
		}
	}
	return false
}

// definesActions reports whether a module of a pack defines the actions
// set.
func definesActions(mods map[string]*ast.Module) bool {
	list := make([]*ast.Module, 0, len(mods))
	for _, m := range mods {
		list = append(list, m)
	}
	for _, sets := range packageSets(list) {
		if slices.Contains(sets, actionSet) {
			return true
		}
	}
	return false
}
