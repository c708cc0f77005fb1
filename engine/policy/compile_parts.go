package policy

import (
	"context"
	"maps"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/policy/yamlrule"
	"github.com/chatlint/chatlint/engine/rule"
)

// Compiling the packs is most of chatlint's start-up, and run serially it
// left the other cores idle. Its parts are independent until Compile assembles the Engine:
// the Rego files parse one by one, OPA compiles them as a whole, the YAML
// files compile without the Rego. So compileParts parses the Rego files on
// every core; then OPA compiles them on one goroutine while the caller
// compiles the YAML and finds what it reads; then the compiled modules'
// reads are found on every core. Compile then walks the results in the
// packs' order, as it walked the packs: the same Engine, the same errors in
// the same order.
//
// The YAML files stay on one goroutine, in order: compiling them numbers
// member slots, lets and partner sets in process-wide tables (memberSlot,
// letSym, setID, filterID), and one order keeps those numbers the same from
// run to run. And no module is walked while OPA copies it (a walk sorts an
// object's keys in place): the parsed ones are walked as they are parsed,
// the compiled ones once OPA is done.
//
// With Options.LazyRego and only built-in Rego, OPA's compile (and the reads
// of what it compiled) waits for the first document a Rego rule applies to
// (compiledParts.program); a run that has none never compiles it.

// compiledParts are the packs' files compiled apart; [i] is packs[i].
type compiledParts struct {
	rego []regoPart
	yaml [][]yamlPart // yaml[i][j] is packs[i].YAML[j]
	// prog is the compiled Rego of every pack, nil when some pack's Rego
	// does not parse (Compile reports that and never needs it) or no pack
	// has Rego; progErr is why it does not compile.
	prog    *regoProgram
	progErr error
	// progOnce guards compiling prog: at once (compileParts with lazy
	// false), or on the first document a Rego rule applies to (program).
	progOnce sync.Once
	// modules and pkgPack are what compiling prog takes, nil when some
	// pack's Rego does not parse or no pack has Rego.
	modules map[string]*ast.Module
	pkgPack map[string]string
	// regoReads are the input paths prog's rules may read (regoPaths);
	// yamlReads the fields the YAML files may (fieldSet.yaml).
	regoReads readTree
	yamlReads *fieldSet
	// yamlRaw is what they may read through raw (yamlRawSource).
	yamlRaw *readTree
	// gateReads and gateRaw are the same of the files that hold only a
	// pack's rego_when entries: those are evaluated only where the pack's
	// Rego applies, so what they read counts as the Rego's reads.
	gateReads *fieldSet
	gateRaw   *readTree
	// members says which parsed modules may read input.lookup,
	// input.tokens and the content facts (regoInputReads), found as each file
	// is parsed.
	members map[*ast.Module]memberReads
}

// readsMember is regoInputReads(m).reads(member) for the members Compile asks about.
func (c *compiledParts) readsMember(m *ast.Module, member string) bool {
	switch member {
	case "lookup":
		return c.members[m].lookup
	case contentMember:
		return c.members[m].content
	}
	return c.members[m].tokens
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
	rules []*yamlrule.Rule
	err   error
	gate  compiledGate
}

// gateOnly reports whether the file holds rego_when entries and no rule.
func (p *yamlPart) gateOnly() bool {
	return p.err == nil && len(p.rules) == 0 && p.gate.err == nil && len(p.gate.rules) > 0
}

// compileParts parses and compiles every file of the packs, as above. With
// lazy, OPA's compile of the Rego (and what it reads) waits until program
// is first called.
func compileParts(ctx context.Context, packs []*Pack, lazy bool) *compiledParts {
	c := &compiledParts{rego: make([]regoPart, len(packs)), yaml: make([][]yamlPart, len(packs)), yamlRaw: &readTree{}, gateRaw: &readTree{}}
	parsed := parseRegoFiles(packs)
	c.members = map[*ast.Module]memberReads{}
	for _, files := range parsed {
		for _, f := range files {
			if f.m != nil {
				c.members[f.m] = f.reads
			}
		}
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.readPacks(packs, parsed)
		if !lazy {
			c.program(ctx)
		}
	}()
	for i, p := range packs {
		c.yaml[i] = make([]yamlPart, len(p.YAML))
		for j, f := range p.YAML {
			src := yamlrule.ParseSource(f)
			root, err := src.Root()
			part := &c.yaml[i][j]
			part.rules, part.err = yamlrule.CompileSource(src, p.Name)
			part.gate.rules, part.gate.err = compileGate(src, p.Name)
			raw := c.yamlRaw
			if part.gateOnly() {
				raw = c.gateRaw
			}
			yamlRawSource(f.Source, root, err, raw)
		}
	}
	c.yamlReads, c.gateReads = yamlFieldReads(packs, c.yaml)
	wg.Wait()
	return c
}

// parseRegoFiles parses every Rego file of every pack, on every core;
// [i][j] is packs[i].Rego[j].
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
	onEveryCore(len(files), func(n int) {
		f := files[n]
		out[f.i][f.j] = parseRegoFile(packs[f.i].Rego[f.j])
	})
	return out
}

// onEveryCore calls do(0) … do(n-1), on as many goroutines as there are
// cores (the caller's one of them), and returns when every call has.
func onEveryCore(n int, do func(int)) {
	var next atomic.Int64
	work := func() {
		for i := next.Add(1) - 1; i < int64(n); i = next.Add(1) - 1 {
			do(int(i))
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
}

// readPacks reads each pack's parsed Rego (regoPack) and, when every pack's
// does, keeps the modules of all for program to compile.
func (c *compiledParts) readPacks(packs []*Pack, parsed [][]parsedRego) {
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
	c.modules, c.pkgPack = modules, pkgPack
}

// program compiles the modules readPacks kept as Compile would, once, and
// finds what they read of input (regoReads); it returns the program, nil
// when there is none or it does not compile (progErr says why).
func (c *compiledParts) program(ctx context.Context) *regoProgram {
	c.progOnce.Do(func() {
		if c.modules == nil {
			return
		}
		c.prog, c.progErr = compileRego(ctx, c.modules, c.pkgPack)
		if c.progErr != nil {
			c.prog = nil
			return
		}
		c.readRego()
	})
	return c.prog
}

// readRego finds what the compiled modules read of input (regoPaths), each
// module into a tree of its own on every core, the trees then merged.
func (c *compiledParts) readRego() {
	if c.prog == nil {
		return
	}
	names := slices.Sorted(maps.Keys(c.prog.modules))
	trees := make([]readTree, len(names))
	mods := make([]*ast.Module, len(names))
	for i, n := range names {
		mods[i] = c.prog.modules[n]
	}
	fns := funcsOf(mods...) // a package's functions may be defined in any of its files
	elems := elemRules(mods, fns)
	onEveryCore(len(names), func(i int) { regoPathsWith(mods[i], &trees[i], fns, elems) })
	for i := range trees {
		c.regoReads.merge(nil, &trees[i])
	}
}
