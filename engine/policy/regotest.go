package policy

import (
	"context"
	"fmt"
	"sort"

	"github.com/chatlint/chatlint/engine/policy/builtins"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/tester"
)

// TestResult is the outcome of one Rego unit test (a `test_` rule in a
// *_test.rego file).
type TestResult struct {
	Name     string // package.test_name
	Location string // file:line
	Fail     bool
	Err      error
}

// RunRegoTests runs the *_test.rego unit tests of the packs, with the
// policies they test and chatlint's builtins, as `opa test` would.
func RunRegoTests(ctx context.Context, packs []*Pack) ([]TestResult, error) {
	modules := map[string]*ast.Module{}
	opts := ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1}
	var errs []string
	for _, p := range packs {
		for _, f := range append(append([]File{}, p.Rego...), p.Tests...) {
			m, err := ast.ParseModuleWithOpts(f.Name, string(f.Source), opts)
			if err != nil {
				errs = append(errs, compileErrors(err).(*CompileError).Errors...)
				continue
			}
			modules[f.Name] = m
		}
	}
	if len(errs) > 0 {
		return nil, &CompileError{Errors: errs}
	}
	compiler := ast.NewCompiler().WithCapabilities(builtins.Capabilities()).WithEnablePrintStatements(true)
	ch, err := tester.NewRunner().SetCompiler(compiler).SetModules(modules).RunTests(ctx, nil)
	if err != nil {
		return nil, compileErrors(err)
	}
	var out []TestResult
	type pos struct {
		file string
		row  int
	}
	where := map[string]pos{}
	for r := range ch {
		tr := TestResult{Name: r.Package + "." + r.Name, Fail: r.Fail, Err: r.Error}
		if r.Location != nil {
			tr.Location = fmt.Sprintf("%s:%d", r.Location.File, r.Location.Row)
			where[tr.Name] = pos{r.Location.File, r.Location.Row}
		}
		out = append(out, tr)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := where[out[i].Name], where[out[j].Name]
		if a.file != b.file {
			return a.file < b.file
		}
		return a.row < b.row
	})
	return out, nil
}
