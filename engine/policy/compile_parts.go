package policy

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/rule"
)

// Compiling the packs is most of chatlint's start-up (issue 25: a
// one-record check spent ~30 ms of CPU in Compile, serially, with the other
// core idle). Its parts are independent until Compile assembles the Engine:
// the Rego files parse one by one, OPA compiles them as a whole, and the
// YAML files compile without the Rego. So compileParts parses the Rego files
// on every core, then compiles them on one goroutine while the caller
// compiles the YAML and reads its fields. Compile then walks the results in
// the packs' order, exactly as it walked the packs: same Engine, same errors
// in the same order.
//
// The YAML files stay on one goroutine, in order: compiling them numbers
// member slots, lets and partner sets in process-wide tables (memberSlot,
// letSym, setID, filterID), and one order keeps those numbers the same from
// run to run.

// compiledParts are the packs' files compiled apart; [i] is packs[i].
type compiledParts struct {
	rego []regoPart
	yaml [][]yamlPart // yaml[i][j] is packs[i].YAML[j]
	// prog is the compiled Rego of every pack, nil when some pack's Rego
	// does not parse (Compile reports that and never needs it) or no pack
	// has Rego; progErr is why it does not compile.
	prog    *regoProgram
	progErr error
	// regoReads are the input paths prog's rules may read (regoPaths);
	// yamlReads the fields the YAML files may (fieldSet.yaml).
	regoReads readTree
	yamlReads *fieldSet
}

// regoPart is parseRego's result for one pack.
type regoPart struct {
	mods  map[string]*ast.Module
	rules []rule.Rule
	pkgs  []string
	err   error
}

// yamlPart is one YAML file compiled: its rules and its rego_when entries.
type yamlPart struct {
	rules []*yamlRule
	err   error
	gate  compiledGate
}

func compileParts(ctx context.Context, packs []*Pack) *compiledParts {
	c := &compiledParts{rego: make([]regoPart, len(packs)), yaml: make([][]yamlPart, len(packs))}
	parsed := parseRegoFiles(packs)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.compileRego(ctx, packs, parsed)
	}()
	for i, p := range packs {
		c.yaml[i] = make([]yamlPart, len(p.YAML))
		for j, f := range p.YAML {
			src := parseYAMLSource(f)
			part := &c.yaml[i][j]
			part.rules, part.err = compileYAMLSource(src, p.Name)
			part.gate.rules, part.gate.err = compileGate(src, p.Name)
		}
	}
	c.yamlReads = yamlFieldReads(packs)
	wg.Wait()
	return c
}

// parseRegoFiles parses every Rego file of every pack, on as many
// goroutines as there are cores; [i][j] is packs[i].Rego[j].
func parseRegoFiles(packs []*Pack) [][]parsedRego {
	type file struct{ i, j int }
	var files []file
	out := make([][]parsedRego, len(packs))
	for i, p := range packs {
		out[i] = make([]parsedRego, len(p.Rego))
		for j := range p.Rego {
			files = append(files, file{i, j})
		}
	}
	var next atomic.Int64
	work := func() {
		for n := next.Add(1) - 1; n < int64(len(files)); n = next.Add(1) - 1 {
			f := files[n]
			out[f.i][f.j] = parseRegoFile(packs[f.i].Rego[f.j])
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
	return out
}

// compileRego reads each pack's parsed Rego (regoPack) and, when every
// pack's does, compiles the modules of all as Compile would and finds what
// they read of input.
func (c *compiledParts) compileRego(ctx context.Context, packs []*Pack, parsed [][]parsedRego) {
	modules := map[string]*ast.Module{}
	pkgPack := map[string]string{}
	ok := true
	for i, p := range packs {
		r := &c.rego[i]
		r.mods, r.rules, r.pkgs, r.err = regoPack(p, parsed[i])
		if r.err != nil {
			ok = false
			continue
		}
		for k, m := range r.mods {
			modules[k] = m
		}
		for _, pkg := range r.pkgs {
			if _, dup := pkgPack[pkg]; !dup {
				pkgPack[pkg] = p.Name
			}
		}
	}
	if !ok || len(modules) == 0 {
		return
	}
	c.prog, c.progErr = compileRego(ctx, modules, pkgPack)
	if c.progErr != nil {
		c.prog = nil
		return
	}
	for _, m := range c.prog.modules {
		regoPaths(m, &c.regoReads)
	}
}
