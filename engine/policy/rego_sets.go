package policy

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"

	"github.com/chatlint/chatlint/engine/finding"
)

// A document's Rego step is a list of set refs: every finding or action set
// (deny, warn, info, actions; dataset_deny, … for the dataset document) a
// package defines, each behind its own small query `set = data.<pkg>.<name>`
// that topdown evaluates directly (rego_eval.go). Only the sets some rule
// defines are queried. regoProgram.sets (and datasetSets) is the whole of
// what topdown evaluates per document, one entry per package and set: a
// package evaluated some other way is taken out of that list when the
// program is compiled, and the others' evaluation does not change (its
// elements must still join the others' before they are ordered and read:
// evalSets).

// regoSet is one set of one package, compiled once.
type regoSet struct {
	pack string           // the pack that declared the package
	pkg  string           // data.chatlint.…
	name string           // deny, warn, info, actions, dataset_deny, …
	sev  finding.Severity // the default severity of its findings (0 for actions)
	// query is `set = data.<pkg>.<name>` compiled against every module;
	// out is the variable the set's value is bound to.
	query ast.Body
	qc    ast.QueryCompiler
	out   ast.Var
	// compiled: the package runs as closures (regoc_*.go), and its query
	// only on a document they fail on.
	compiled bool
}

// setOrder is the order of a package's sets in the list; it is the order
// the former gather module evaluated them, so the first error a document
// meets is the one it met.
var (
	recordSetOrder  = []string{"deny", "warn", "info", actionSet}
	datasetSetOrder = []string{"dataset_deny", "dataset_warn", "dataset_info"}
)

// outVar is the query variable a set's value is bound to.
const outVar = ast.Var("chatlint_set")

// regoSets lists, for the packages in pkgPack sorted by path, the sets in
// order that some rule of the compiled policy defines, each with its
// compiled query. A set no rule defines (no node in the rule tree) would be
// undefined, as the data store is empty: it is left out.
func regoSets(compiler *ast.Compiler, pkgPack map[string]string, order []string, sevs map[string]finding.Severity) ([]regoSet, error) {
	pkgs := make([]string, 0, len(pkgPack))
	for p := range pkgPack {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	var out []regoSet
	for _, pkg := range pkgs {
		path, err := ast.ParseRef(pkg)
		if err != nil {
			return nil, fmt.Errorf("internal: package %s: %w", pkg, err)
		}
		for _, name := range order {
			ref := path.Append(ast.StringTerm(name))
			if compiler.RuleTree.Find(ref) == nil {
				continue
			}
			body := ast.NewBody(ast.Equality.Expr(ast.NewTerm(outVar), ast.NewTerm(ref)))
			qc := compiler.QueryCompiler().WithEnablePrintStatements(false).WithStrict(false)
			compiled, err := qc.Compile(body)
			if err != nil {
				return nil, compileErrors(err)
			}
			out = append(out, regoSet{pack: pkgPack[pkg], pkg: pkg, name: name, sev: sevs[name], query: compiled, qc: qc, out: outVar})
		}
	}
	return out, nil
}

// newRegoStore opens the data store every evaluation reads and its one read
// transaction. Packs bring no data, so the store stays empty and is never
// written: an inmem read transaction only reads the store's map (it takes a
// read lock a writer would wait on, and there is no writer), so one
// transaction serves every evaluation of every worker, where rego.Eval
// opened and closed one per document.
func newRegoStore(ctx context.Context) (storage.Store, storage.Transaction, error) {
	store := inmem.New()
	txn, err := store.NewTransaction(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("internal: opening the data store: %w", err)
	}
	return store, txn, nil
}

// gatherModule is the module that once gathered every set of every
// package into one set: `out contains [pack, set, f] if some f in
// data.<pkg>.<set>` for every package × set. It is no longer evaluated,
// but still compiled with the packs: its type check is what refuses a pack
// whose deny, warn, info or actions is not a collection (a string, a
// number, a function), and those packs must keep failing to compile, with
// the same message.
func gatherModule(pkgPack map[string]string) (*ast.Module, error) {
	pkgs := make([]string, 0, len(pkgPack))
	for p := range pkgPack {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	var b strings.Builder
	b.WriteString("package chatlint_engine\n\n")
	for _, pkg := range pkgs {
		for _, set := range recordSetOrder {
			fmt.Fprintf(&b, "out contains [%q, %q, f] if some f in %s.%s\n", pkgPack[pkg], set, pkg, set)
		}
		for _, set := range datasetSetOrder {
			fmt.Fprintf(&b, "dataset_out contains [%q, %q, f] if some f in %s.%s\n", pkgPack[pkg], set, pkg, set)
		}
	}
	m, err := ast.ParseModuleWithOpts(gatherFile, b.String(), ast.ParserOptions{RegoVersion: ast.RegoV1})
	if err != nil {
		return nil, fmt.Errorf("internal: gather module: %w", err)
	}
	return m, nil
}

// gatherFile is the gather module's file name, as compile errors show it.
const gatherFile = "chatlint_engine.rego"
