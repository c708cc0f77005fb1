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
// (compiledParts.program); a run that has none never compiles it. A
// built-in pack's Rego is not even parsed before then: what Compile reads of
// it comes from the table generated beside it (rego_table.go).

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
	// regoOK says every pack's Rego parsed (or is in the generated table,
	// rego_table.go) and some pack has Rego: then program has modules to
	// compile.
	regoOK bool
	// packs are the packs compiled, for program to parse the Rego of those
	// whose summary came from the table.
	packs []*Pack
	// parseMu guards parsing the Rego of packs read from the table
	// (modules); subsets holds the programs of some of the packs
	// (programOf, rego_packset.go).
	parseMu sync.Mutex
	subsets subsetPrograms
}

// regoPart is parseRego's result for one pack.
type regoPart struct {
	// mods are the parsed modules by file name: from the start, or, for a
	// pack read from the table (table), once program parses them.
	mods  map[string]*ast.Module
	files []regoFile // p.Rego's names and reads, when err is nil
	rules []rule.Rule
	pkgs  []string
	err   error
	table bool
	// actions says a package of the pack defines the actions set
	// (definesActions), evaluated wherever OPA runs.
	actions bool
}

// yamlPart is one YAML file compiled: its rules and its rego_when entries.
type yamlPart struct {
	rules []*yamlrule.Rule
	err   error
	gate  compiledGate
	// raw is what a file of rego_when entries only (gateOnly) may read
	// through raw (yamlRawSource), for its pack's gate (gateReadsOf).
	raw *readTree
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
	table := make([]*regoSummary, len(packs))
	for i, p := range packs {
		table[i] = tableSummary(p)
	}
	parsed := parseRegoFiles(packs, func(i int) bool { return table[i] == nil })
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.readPacks(packs, parsed, table)
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
			if !part.gateOnly() {
				yamlRawSource(f.Source, root, err, c.yamlRaw)
				continue
			}
			part.raw = &readTree{}
			yamlRawSource(f.Source, root, err, part.raw)
			c.gateRaw.merge(nil, part.raw)
		}
	}
	c.yamlReads, c.gateReads = yamlFieldReads(packs, c.yaml)
	wg.Wait()
	return c
}

// parseRegoFiles parses every Rego file of the packs i that parse(i)
// names, on every core; [i][j] is packs[i].Rego[j], nil for the others.
func parseRegoFiles(packs []*Pack, parse func(i int) bool) [][]parsedRego {
	type file struct{ i, j int }
	var files []file
	out := make([][]parsedRego, len(packs))
	for i, p := range packs {
		if !parse(i) {
			continue
		}
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

// readPacks reads each pack's parsed Rego (regoPack), or its summary in
// table, and notes whether program will have modules to compile.
func (c *compiledParts) readPacks(packs []*Pack, parsed [][]parsedRego, table []*regoSummary) {
	ok, files := true, 0
	for i, p := range packs {
		r := &c.rego[i]
		if s := table[i]; s != nil {
			r.files, r.rules, r.pkgs, r.table, r.actions = s.files, s.rules, s.pkgs, true, s.actions
			files += len(r.files)
			continue
		}
		r.mods, r.rules, r.pkgs, r.err = regoPack(p, parsed[i])
		if r.err != nil {
			ok = false
			continue
		}
		r.actions = definesActions(r.mods)
		for j, f := range p.Rego {
			r.files = append(r.files, regoFile{name: f.Name, reads: parsed[i][j].reads})
		}
		files += len(r.files)
	}
	c.regoOK, c.packs = ok && files > 0, packs
}

// modules parses the Rego of the packs of set read from the table, and
// returns those packs' modules by file name and each package's pack (the
// first pack to declare it), for OPA to compile. Programs of different pack
// sets may be compiled at once: parseMu keeps them from parsing a pack
// twice, or reading its modules while another parses them.
func (c *compiledParts) modules(set packSet) (map[string]*ast.Module, map[string]string, error) {
	c.parseMu.Lock()
	defer c.parseMu.Unlock()
	unparsed := func(i int) bool { return set.has(i) && c.rego[i].table && c.rego[i].mods == nil }
	parsed := parseRegoFiles(c.packs, unparsed)
	modules := map[string]*ast.Module{}
	pkgPack := map[string]string{}
	for i, p := range c.packs {
		if !set.has(i) {
			continue
		}
		r := &c.rego[i]
		if unparsed(i) {
			mods, _, _, err := regoPack(p, parsed[i])
			if err != nil {
				return nil, nil, err
			}
			r.mods = mods
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
	return modules, pkgPack, nil
}

// program compiles the packs' modules as Compile would, once, and finds
// what they read of input (regoReads); it returns the program, nil when
// there is none or it does not compile (progErr says why).
func (c *compiledParts) program(ctx context.Context) *regoProgram {
	c.progOnce.Do(func() {
		if !c.regoOK {
			return
		}
		modules, pkgPack, err := c.modules(c.allSet())
		if err == nil {
			c.prog, err = compileRego(ctx, modules, pkgPack)
		}
		if err != nil {
			c.prog, c.progErr = nil, err
			return
		}
		c.readRego(c.prog, &c.regoReads)
	})
	return c.prog
}

// readRego finds what prog's compiled modules read of input (regoPaths)
// into reads, each module into a tree of its own on every core, the trees
// then merged.
func (c *compiledParts) readRego(prog *regoProgram, reads *readTree) {
	if prog == nil {
		return
	}
	names := slices.Sorted(maps.Keys(prog.modules))
	trees := make([]readTree, len(names))
	mods := make([]*ast.Module, len(names))
	for i, n := range names {
		mods[i] = prog.modules[n]
	}
	fns := funcsOf(mods...) // a package's functions may be defined in any of its files
	elems := elemRules(mods, fns)
	onEveryCore(len(names), func(i int) { regoPathsWith(mods[i], &trees[i], fns, elems) })
	for i := range trees {
		reads.merge(nil, &trees[i])
	}
}
