package policy

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// regocProgram evaluates a record's sets: the compiled packages as
// closures, the rest (if any) by a topdown query over just those packages;
// it gives the triples [pack, set, value] in the order and with the
// dedupe topdown's gather query gives them.
type regocProgram struct {
	pkgs []*regocPackage
	rest *rego.PreparedEvalQuery // nil when every package compiled
	caps *ast.Capabilities
	// fallbacks counts the documents left to topdown after an error (for
	// the tests: a comparison where every document falls back proves
	// nothing).
	fallbacks atomic.Int64
}

// prepareRegoc compiles what it can of the record sets; nil when nothing
// compiles or CHATLINT_REGO_EVAL=topdown.
func prepareRegoc(ctx context.Context, c *ast.Compiler, pkgPack map[string]string) (*regocProgram, error) {
	if regocDisabled() {
		return nil, nil
	}
	compiled, rest := regocCompile(c, pkgPack)
	if os.Getenv(regocEnvVar) == "explain" {
		fmt.Fprint(os.Stderr, regocExplain(c, compiled, rest))
	}
	if len(compiled) == 0 {
		return nil, nil
	}
	rp := &regocProgram{pkgs: compiled, caps: c.Capabilities()}
	if len(rest) == 0 {
		return rp, nil
	}
	var parts []string
	for _, pkg := range rest {
		pack, _ := json.Marshal(pkgPack[pkg])
		for _, set := range recordSets {
			parts = append(parts, fmt.Sprintf("{[%s, %q, f] | some f in %s.%s}", pack, set, pkg, set))
		}
	}
	q, err := rego.New(rego.Compiler(c), rego.Query(strings.Join(parts, " | "))).PrepareForEval(ctx)
	if err != nil {
		return nil, compileErrors(err)
	}
	rp.rest = &q
	return rp, nil
}

// items evaluates every package over one input. ok is false when the
// closures met an error other than cancellation (a conflict, a built-in
// that halts): then topdown evaluates the document instead, and says what
// the error is in its own words.
func (rp *regocProgram) items(ctx context.Context, input ast.Value, cancel topdown.Cancel) (set []any, ok bool, err error) {
	groups := map[regocSetKey]ast.Set{}
	if err := regocEval(ctx, rp.pkgs, input, cancel, rp.caps, groups); err != nil {
		if err == regocCancelled {
			return nil, true, err
		}
		rp.fallbacks.Add(1)
		return nil, false, nil
	}
	set, err = rp.merged(ctx, input, cancel, groups)
	return set, true, err
}

// merged adds the values of the packages left to topdown and orders them
// all as topdown's gather query does.
func (rp *regocProgram) merged(ctx context.Context, input ast.Value, cancel topdown.Cancel, groups map[regocSetKey]ast.Set) ([]any, error) {
	var rest []any
	if rp.rest != nil {
		rs, err := rp.rest.Eval(ctx, rego.EvalParsedInput(input), rego.EvalMetrics(noMetrics), rego.EvalExternalCancel(cancel))
		if err != nil {
			return nil, err
		}
		if len(rs) > 0 && len(rs[0].Expressions) > 0 {
			rest, _ = rs[0].Expressions[0].Value.([]any)
		}
	}
	keys := make([]regocSetKey, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b regocSetKey) int {
		if c := strings.Compare(a.pack, b.pack); c != 0 {
			return c
		}
		return strings.Compare(a.set, b.set)
	})
	var mine []*ast.Term
	for _, k := range keys {
		pack, set := ast.StringTerm(k.pack), ast.StringTerm(k.set)
		groups[k].Foreach(func(f *ast.Term) { mine = append(mine, ast.ArrayTerm(pack, set, f)) })
	}
	if len(rest) == 0 {
		out := make([]any, 0, len(mine))
		for _, t := range mine {
			v, err := ast.JSONWithOpt(t.Value, ast.JSONOpt{})
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	return regocMerge(mine, rest)
}

// regocMerge merges the sorted triples of the closures with the sorted
// items of the topdown query, as one set would order and dedupe them.
func regocMerge(mine []*ast.Term, rest []any) ([]any, error) {
	out := make([]any, 0, len(mine)+len(rest))
	i := 0
	for _, item := range rest {
		v, err := ast.InterfaceToValue(item)
		if err != nil {
			return nil, err
		}
		for ; i < len(mine); i++ {
			c := ast.Compare(mine[i].Value, v)
			if c > 0 {
				break
			}
			if c < 0 {
				j, err := ast.JSONWithOpt(mine[i].Value, ast.JSONOpt{})
				if err != nil {
					return nil, err
				}
				out = append(out, j)
			}
		}
		out = append(out, item)
	}
	for ; i < len(mine); i++ {
		j, err := ast.JSONWithOpt(mine[i].Value, ast.JSONOpt{})
		if err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, nil
}
