package convert

// TO BE REPLACED: this file evaluates cleanup packs and applies their actions
// itself, until engine/fix's Apply (the action machinery of `chatlint fix`)
// lands; then packCleaner becomes a call to it and this file goes away. It
// knows only the ops the goose pack uses (see applyActions).

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/metrics"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonv"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/policies"
)

// GoosePack loads the built-in goose cleanup pack.
func GoosePack() (*policy.Pack, error) {
	return policy.LoadFS(policies.FS, "goose", "builtin:policies/goose")
}

// packCleaner evaluates the `actions` set of every package of one pack over
// a chat document made of one entry: input.raw.messages are the entry's
// request messages and input.raw.response its response.
type packCleaner struct {
	pack  string
	query rego.PreparedEvalQuery
}

// NewPackCleaner compiles one cleanup pack.
func NewPackCleaner(ctx context.Context, p *policy.Pack) (Cleaner, error) {
	modules := map[string]*ast.Module{}
	var pkgs []string
	for _, f := range p.Rego {
		m, err := ast.ParseModuleWithOpts(f.Name, string(f.Source), ast.ParserOptions{RegoVersion: ast.RegoV1, ProcessAnnotation: true})
		if err != nil {
			return nil, fmt.Errorf("cleanup pack %s: %w", p.Name, err)
		}
		modules[f.Name] = m
		pkg := m.Package.Path.String()
		if !strings.HasPrefix(pkg, "data.chatlint.") {
			return nil, fmt.Errorf("cleanup pack %s: %s: package must be chatlint.<pack>…", p.Name, f.Name)
		}
		pkgs = append(pkgs, pkg)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("cleanup pack %s has no Rego policy", p.Name)
	}
	sort.Strings(pkgs)
	var b strings.Builder
	b.WriteString("package chatlint_cleanup\n\n")
	for _, pkg := range pkgs {
		fmt.Fprintf(&b, "actions contains a if some a in %s.actions\n", pkg)
	}
	gather, err := ast.ParseModuleWithOpts("chatlint_cleanup.rego", b.String(), ast.ParserOptions{RegoVersion: ast.RegoV1})
	if err != nil {
		return nil, err
	}
	modules["chatlint_cleanup.rego"] = gather
	compiler := ast.NewCompiler().WithCapabilities(policy.Capabilities())
	if compiler.Compile(modules); compiler.Failed() {
		return nil, fmt.Errorf("cleanup pack %s does not compile: %v", p.Name, compiler.Errors)
	}
	q, err := rego.New(rego.Compiler(compiler), rego.Query("data.chatlint_cleanup.actions")).PrepareForEval(ctx)
	if err != nil {
		return nil, fmt.Errorf("cleanup pack %s: %w", p.Name, err)
	}
	return &packCleaner{pack: p.Name, query: q}, nil
}

func (c *packCleaner) Clean(ctx context.Context, e *Entry, file string) (*Entry, bool, error) {
	msgs := make([]jsonv.Value, len(e.Messages))
	for i, m := range e.Messages {
		msgs[i] = m
	}
	rec := &jsonv.Object{Members: []jsonv.Member{{Key: "messages", Value: msgs}}}
	if e.Response != nil {
		rec.Members = append(rec.Members, jsonv.Member{Key: "response", Value: e.Response})
	}
	v, err := astjson.Decode(ruleJSON(rec))
	if err != nil {
		return nil, false, fmt.Errorf("%s:%d: %w", file, e.Line, err)
	}
	doc := document.NewBuilder(document.Chat, file, document.Options{}).Add(e.Line, v.(ast.Object))
	rs, err := c.query.Eval(ctx, rego.EvalParsedInput(doc.Value), rego.EvalMetrics(metrics.NoOp()))
	if err != nil {
		return nil, false, fmt.Errorf("%s:%d: cleanup pack %s: %w", file, e.Line, c.pack, err)
	}
	var set []any
	if len(rs) > 0 && len(rs[0].Expressions) > 0 {
		set, _ = rs[0].Expressions[0].Value.([]any)
	}
	if len(set) == 0 {
		return e, false, nil
	}
	actions, err := decodeActions(c.pack, set)
	if err != nil {
		return nil, false, err
	}
	kept, drop, err := applyActions(e, actions)
	if err != nil {
		return nil, false, fmt.Errorf("%s:%d: cleanup pack %s: %w", file, e.Line, c.pack, err)
	}
	return kept, drop, nil
}
