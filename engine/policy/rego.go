package policy

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/metrics"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/chatlint/chatlint/engine/finding"
)

// Builtins a pack may not call: packs are semi-trusted, and a linter must not
// reach the network or leak the environment.
var deniedBuiltins = []string{"http.send", "net.lookup_ip_addr", "net.cidr_expand", "opa.runtime", "trace", "rego.parse_module", "providers.aws.sign_req"}

// Capabilities returns the OPA capabilities packs are compiled with.
func Capabilities() *ast.Capabilities {
	caps := ast.CapabilitiesForThisVersion()
	caps.Builtins = slices.DeleteFunc(caps.Builtins, func(b *ast.Builtin) bool {
		return slices.Contains(deniedBuiltins, b.Name)
	})
	caps.AllowNet = []string{}
	return caps
}

// setSeverity maps the finding sets of a package to their severity.
var setSeverity = map[string]finding.Severity{"deny": finding.Error, "warn": finding.Warning, "info": finding.Info}

// regoProgram is every Rego module of every pack behind one prepared query.
type regoProgram struct {
	query rego.PreparedEvalQuery
}

// CompileError is a policy that does not parse or compile.
type CompileError struct {
	Errors []string // each "file:line:col: message"
}

func (e *CompileError) Error() string { return strings.Join(e.Errors, "\n") }

func compileErrors(err error) error {
	var errs ast.Errors
	if e, ok := err.(ast.Errors); ok {
		errs = e
	} else {
		return &CompileError{Errors: []string{err.Error()}}
	}
	out := &CompileError{}
	for _, e := range errs {
		if e.Location != nil {
			out.Errors = append(out.Errors, fmt.Sprintf("%s:%d:%d: %s: %s", e.Location.File, e.Location.Row, e.Location.Col, e.Code, e.Message))
		} else {
			out.Errors = append(out.Errors, e.Code+": "+e.Message)
		}
	}
	return out
}

// parseRego parses a pack's modules and reads rule metadata from their
// METADATA annotations. It returns the modules, the rules, and the packages
// that hold finding sets.
func parseRego(p *Pack) (map[string]*ast.Module, []Rule, []string, error) {
	modules := map[string]*ast.Module{}
	var rules []Rule
	var pkgs []string
	var errs []string
	opts := ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1}
	for _, f := range p.Rego {
		m, err := ast.ParseModuleWithOpts(f.Name, string(f.Source), opts)
		if err != nil {
			errs = append(errs, compileErrors(err).(*CompileError).Errors...)
			continue
		}
		modules[f.Name] = m
		pkg := m.Package.Path.String()
		if !strings.HasPrefix(pkg, "data.chatlint.") {
			errs = append(errs, fmt.Sprintf("%s:%d:%d: package must be chatlint.<pack>…, not %s", f.Name, m.Package.Location.Row, m.Package.Location.Col, strings.TrimPrefix(pkg, "data.")))
			continue
		}
		if !slices.Contains(pkgs, pkg) {
			pkgs = append(pkgs, pkg)
		}
		for _, a := range m.Annotations {
			r, ok, err := ruleFromAnnotation(a, p.Name)
			if err != nil {
				errs = append(errs, err.Error())
			}
			if ok {
				rules = append(rules, r)
			}
		}
	}
	if len(errs) > 0 {
		return nil, nil, nil, &CompileError{Errors: errs}
	}
	return modules, rules, pkgs, nil
}

func ruleFromAnnotation(a *ast.Annotations, pack string) (Rule, bool, error) {
	if a.Scope != "rule" && a.Scope != "document" {
		return Rule{}, false, nil
	}
	id, _ := a.Custom["id"].(string)
	loc := fmt.Sprintf("%s:%d", a.Location.File, a.Location.Row)
	target := a.GetTargetPath()
	set := ""
	if len(target) > 0 {
		set = strings.Trim(target[len(target)-1].String(), `"`)
	}
	def, isSet := setSeverity[set]
	if set == actionSet { // cleanup rules: listed as info
		def, isSet = finding.Info, true
	}
	if id == "" {
		if isSet {
			return Rule{}, false, fmt.Errorf("%s:%d:%d: METADATA on %s needs custom.id", a.Location.File, a.Location.Row, a.Location.Col, set)
		}
		return Rule{}, false, nil
	}
	sev := def
	if s, ok := a.Custom["severity"].(string); ok {
		v, err := finding.ParseSeverity(s)
		if err != nil {
			return Rule{}, false, fmt.Errorf("%s:%d:%d: rule %s: %v", a.Location.File, a.Location.Row, a.Location.Col, id, err)
		}
		sev = v
	}
	if sev == 0 {
		return Rule{}, false, fmt.Errorf("%s:%d:%d: rule %s: custom.severity is required outside deny/warn/info", a.Location.File, a.Location.Row, a.Location.Col, id)
	}
	if a.Description == "" {
		return Rule{}, false, fmt.Errorf("%s:%d:%d: rule %s: description is required", a.Location.File, a.Location.Row, a.Location.Col, id)
	}
	example, _ := a.Custom["example"].(string)
	fix, _ := a.Custom["fix"].(string)
	return Rule{ID: id, Title: a.Title, Severity: sev, Pack: pack, Kind: "rego", Description: strings.TrimSpace(a.Description),
		Example: strings.TrimSpace(example), Fix: strings.TrimSpace(fix), Source: loc}, true, nil
}

// compileRego compiles every module once, adds a module that gathers the
// finding sets of every package, and prepares the one query evaluated per
// document.
func compileRego(ctx context.Context, modules map[string]*ast.Module, pkgPack map[string]string) (*regoProgram, error) {
	pkgs := make([]string, 0, len(pkgPack))
	for p := range pkgPack {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	var b strings.Builder
	b.WriteString("package chatlint_engine\n\n")
	for _, pkg := range pkgs {
		for _, set := range []string{"deny", "warn", "info", actionSet} {
			fmt.Fprintf(&b, "out contains [%q, %q, f] if some f in %s.%s\n", pkgPack[pkg], set, pkg, set)
		}
	}
	gather, err := ast.ParseModuleWithOpts("chatlint_engine.rego", b.String(), ast.ParserOptions{RegoVersion: ast.RegoV1})
	if err != nil {
		return nil, fmt.Errorf("internal: gather module: %w", err)
	}
	all := make(map[string]*ast.Module, len(modules)+1)
	for k, v := range modules {
		all[k] = v
	}
	all["chatlint_engine.rego"] = gather
	compiler := ast.NewCompiler().WithCapabilities(Capabilities()).WithEnablePrintStatements(false)
	if compiler.Compile(all); compiler.Failed() {
		return nil, compileErrors(compiler.Errors)
	}
	q, err := rego.New(
		rego.Compiler(compiler),
		rego.Query("data.chatlint_engine.out"),
	).PrepareForEval(ctx)
	if err != nil {
		return nil, compileErrors(err)
	}
	return &regoProgram{query: q}, nil
}

var noMetrics = metrics.NoOp()

// eval evaluates the prepared query over one document.
func (p *regoProgram) eval(ctx context.Context, input ast.Value, cancel topdown.Cancel, hits []Hit, acts []Action) ([]Hit, []Action, error) {
	rs, err := p.query.Eval(ctx, rego.EvalParsedInput(input), rego.EvalMetrics(noMetrics), rego.EvalExternalCancel(cancel))
	if err != nil {
		return hits, acts, err
	}
	if len(rs) == 0 || len(rs[0].Expressions) == 0 {
		return hits, acts, nil
	}
	set, _ := rs[0].Expressions[0].Value.([]any)
	for _, item := range set {
		t, _ := item.([]any)
		if len(t) != 3 {
			continue
		}
		pack, _ := t[0].(string)
		if t[1] == actionSet {
			a, err := actionFromObject(pack, t[2])
			if err != nil {
				return hits, acts, err
			}
			acts = append(acts, a)
			continue
		}
		sev := setSeverity[t[1].(string)]
		h, err := hitFromObject(pack, sev, t[2])
		if err != nil {
			return hits, acts, err
		}
		hits = append(hits, h)
	}
	return hits, acts, nil
}

// hitFromObject reads a finding object a Rego rule produced.
func hitFromObject(pack string, sev finding.Severity, v any) (Hit, error) {
	o, ok := v.(map[string]any)
	if !ok {
		return Hit{}, fmt.Errorf("pack %s: a finding must be an object, got %v", pack, v)
	}
	rule, _ := o["rule"].(string)
	if rule == "" {
		return Hit{}, fmt.Errorf("pack %s: finding without a rule id: %v", pack, v)
	}
	msg, _ := o["msg"].(string)
	if msg == "" {
		msg, _ = o["message"].(string)
	}
	h := newHit(rule, pack, sev, msg)
	if s, ok := o["severity"].(string); ok {
		if v, err := finding.ParseSeverity(s); err == nil {
			h.Severity = v
		}
	}
	h.MessageIndex = intOr(o["message_index"], -1)
	h.ToolCallIndex = intOr(o["tool_call_index"], -1)
	h.ToolIndex = intOr(o["tool_index"], -1)
	h.EntryIndex = intOr(o["entry_index"], -1)
	h.Path, _ = o["path"].(string)
	return h, nil
}

func intOr(v any, def int) int {
	switch n := v.(type) {
	case json.Number:
		i, err := n.Int64()
		if err == nil {
			return int(i)
		}
	case int:
		return n
	case float64:
		return int(n)
	}
	return def
}
