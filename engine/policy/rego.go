package policy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/metrics"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/policy/builtins"
	"github.com/chatlint/chatlint/engine/rule"
)

// setSeverity maps the finding sets of a package to their severity.
var setSeverity = map[string]finding.Severity{"deny": finding.Error, "warn": finding.Warning, "info": finding.Info}

// datasetSets are the finding sets of dataset rules, evaluated once per file
// over its dataset document (docs/document.md#the-dataset-document), by
// their own query: a record's evaluation never reaches them.
var datasetSets = map[string]finding.Severity{"dataset_deny": finding.Error, "dataset_warn": finding.Warning, "dataset_info": finding.Info}

// regoProgram is every Rego module of every pack, compiled once, and the
// finding and action sets topdown evaluates per document (rego_sets.go).
type regoProgram struct {
	compiler *ast.Compiler
	store    storage.Store
	txn      storage.Transaction // one read transaction for every evaluation
	// sets are the record sets, datasetSets the dataset sets (evaluated
	// once per file); either may be empty.
	sets, datasetSets []regoSet
	// rules are every declared rule by id: a finding must name one, and
	// its declared formats scope it.
	rules map[string]rule.Rule
	// scopes say, by pack name, where a pack's rules apply: its record
	// sets are evaluated only on the documents one of them applies to
	// (rego_scope.go).
	scopes map[string]*regoScope
	// modules are the compiled modules, for the analysis of what the rules
	// read of input (fielduse.go).
	modules map[string]*ast.Module
	// regoc evaluates a record's sets with the packages it could compile
	// as closures (regoc_*.go); nil: query does it all on topdown.
	regoc *regocProgram
}

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
func parseRego(p *Pack) (map[string]*ast.Module, []rule.Rule, []string, error) {
	files := make([]parsedRego, len(p.Rego))
	for i, f := range p.Rego {
		files[i] = parseRegoFile(f)
	}
	return regoPack(p, files)
}

// parsedRego is one Rego file parsed, or why it does not parse.
type parsedRego struct {
	m     *ast.Module
	err   error
	reads memberReads
}

// memberReads says whether a module may read input.lookup, input.tokens
// and the dataset document's content facts (regoInputReads, contentMembers).
type memberReads struct{ lookup, tokens, content bool }

// parseRegoFile parses one Rego file of a pack and finds whether it reads
// lookup and tokens; files parse independently (Compile parses them
// concurrently).
func parseRegoFile(f File) parsedRego {
	m, err := ast.ParseModuleWithOpts(f.Name, string(f.Source), ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1})
	if err != nil {
		return parsedRego{err: err}
	}
	in := regoInputReads(m)
	reads := memberReads{lookup: in.reads("lookup"), tokens: in.reads("tokens")}
	for _, member := range contentMembers {
		reads.content = reads.content || in.reads(member)
	}
	return parsedRego{m: m, reads: reads}
}

// regoPack is parseRego over p's files already parsed (files[i] is
// p.Rego[i]).
func regoPack(p *Pack, files []parsedRego) (map[string]*ast.Module, []rule.Rule, []string, error) {
	modules := map[string]*ast.Module{}
	var rules []rule.Rule
	var pkgs []string
	var errs []string
	var parsed []*ast.Module
	for i, f := range p.Rego {
		m, err := files[i].m, files[i].err
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
		parsed = append(parsed, m)
	}
	// A package's sets are known only once every module is parsed: package
	// metadata in one file may declare the rule another file of the package
	// writes.
	sets := packageSets(parsed)
	for _, m := range parsed {
		for _, a := range m.Annotations {
			r, ok, err := ruleFromAnnotation(a, p.Name, sets[m.Package.Path.String()])
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

// packageSets names, per package, the finding and action sets its rules
// define (deny, warn, info, actions).
func packageSets(mods []*ast.Module) map[string][]string {
	out := map[string][]string{}
	for _, m := range mods {
		pkg := m.Package.Path.String()
		for _, r := range m.Rules {
			name := r.Head.Name.String()
			if len(r.Head.Reference) > 0 {
				name = strings.Trim(r.Head.Reference[0].String(), `"`)
			}
			if _, isSet := setSeverity[name]; (isSet || name == actionSet) && !slices.Contains(out[pkg], name) {
				out[pkg] = append(out[pkg], name)
			}
		}
	}
	return out
}

// ruleFromAnnotation reads the rule a METADATA block declares. Rule and
// document scope declare the rule they stand on, its set giving the default
// severity. Package (and subpackages) scope — the block above the package
// line, one rule per package as Regal lays packs out — declares the rule of
// that package: its severity is custom.severity, else the one finding set the
// package defines.
func ruleFromAnnotation(a *ast.Annotations, pack string, pkgSets []string) (rule.Rule, bool, error) {
	set := ""
	switch a.Scope {
	case "rule", "document":
		if target := a.GetTargetPath(); len(target) > 0 {
			set = strings.Trim(target[len(target)-1].String(), `"`)
		}
	case "package", "subpackages":
		if len(pkgSets) == 1 {
			set = pkgSets[0]
		}
	default:
		return rule.Rule{}, false, nil
	}
	id, _ := a.Custom["id"].(string)
	loc := fmt.Sprintf("%s:%d", a.Location.File, a.Location.Row)
	def, isSet := setSeverity[set]
	scope := ""
	if d, ok := datasetSets[set]; ok {
		def, isSet, scope = d, true, rule.ScopeDataset
	}
	if set == actionSet { // cleanup rules: listed as info
		def, isSet = finding.Info, true
	}
	if id == "" {
		if isSet && (a.Scope == "rule" || a.Scope == "document") {
			return rule.Rule{}, false, fmt.Errorf("%s:%d:%d: METADATA on %s needs custom.id", a.Location.File, a.Location.Row, a.Location.Col, set)
		}
		return rule.Rule{}, false, nil
	}
	sev := def
	if s, ok := a.Custom["severity"].(string); ok {
		v, err := finding.ParseSeverity(s)
		if err != nil {
			return rule.Rule{}, false, fmt.Errorf("%s:%d:%d: rule %s: %v", a.Location.File, a.Location.Row, a.Location.Col, id, err)
		}
		sev = v
	}
	if sev == 0 {
		where := "outside deny/warn/info"
		if a.Scope == "package" || a.Scope == "subpackages" {
			where = "on package metadata when the package has not exactly one of deny/warn/info"
		}
		return rule.Rule{}, false, fmt.Errorf("%s:%d:%d: rule %s: custom.severity is required %s", a.Location.File, a.Location.Row, a.Location.Col, id, where)
	}
	if a.Description == "" {
		return rule.Rule{}, false, fmt.Errorf("%s:%d:%d: rule %s: description is required", a.Location.File, a.Location.Row, a.Location.Col, id)
	}
	example, _ := a.Custom["example"].(string)
	fix, _ := a.Custom["fix"].(string)
	var formats, repairs, profiles, modes []string
	for _, l := range []struct {
		key  string
		dst  *[]string
		want string
		item func(any) (string, error)
	}{
		{"formats", &formats, "a list of formats (" + document.FormatNames() + ")", formatItem},
		{"repairs", &repairs, "a list of rule ids", repairItem},
		{"profiles", &profiles, "a list of profile names", profileItem},
		{"modes", &modes, "a list of modes (inline, structured)", modeItem},
	} {
		list, err := customList(a.Custom[l.key], l.want, l.item)
		if err != nil {
			return rule.Rule{}, false, fmt.Errorf("%s:%d:%d: rule %s: custom.%s: %v", a.Location.File, a.Location.Row, a.Location.Col, id, l.key, err)
		}
		*l.dst = list
	}
	refs, err := customStrings(a.Custom["refs"])
	if err != nil {
		return rule.Rule{}, false, fmt.Errorf("%s:%d:%d: rule %s: custom.refs: %v", a.Location.File, a.Location.Row, a.Location.Col, id, err)
	}
	return rule.Rule{ID: id, Title: a.Title, Severity: sev, Pack: pack, Kind: "rego", Description: strings.TrimSpace(a.Description),
		Example: strings.TrimSpace(example), Fix: strings.TrimSpace(fix), Formats: formats, Profiles: profiles, Scope: scope, Source: loc, Repairs: repairs, Modes: modes, Refs: refs}, true, nil
}

// customStrings reads a list of strings of a rule's METADATA (custom.refs).
func customStrings(v any) ([]string, error) {
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("want a list of strings")
	}
	out := make([]string, 0, len(list))
	for _, x := range list {
		s, ok := x.(string)
		if !ok || strings.TrimSpace(s) == "" {
			return nil, fmt.Errorf("want a list of strings, found %v", x)
		}
		out = append(out, strings.TrimSpace(s))
	}
	return out, nil
}

// customList reads a list of a rule's METADATA custom block (formats,
// repairs, profiles, modes), each element checked and named by item; nil
// when the rule gives none.
func customList(v any, want string, item func(any) (string, error)) ([]string, error) {
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, errors.New("want " + want)
	}
	var out []string
	for _, x := range list {
		s, err := item(x)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// formatItem is an input format the rule applies to (custom.formats; none:
// every format).
func formatItem(x any) (string, error) {
	s, _ := x.(string)
	f, ok := document.ParseFormat(s)
	if !ok {
		return "", fmt.Errorf("unknown format %v (want %s)", x, document.FormatNames())
	}
	return string(f), nil
}

// repairItem is the id of a check a cleanup rule repairs (custom.repairs).
func repairItem(x any) (string, error) {
	s, ok := x.(string)
	if !ok || s == "" {
		return "", fmt.Errorf("want a list of rule ids, not %v", x)
	}
	return s, nil
}

// profileItem is a profile the rule applies under (custom.profiles; none:
// every profile).
func profileItem(x any) (string, error) {
	s, _ := x.(string)
	if s == "" {
		return "", fmt.Errorf("want a list of profile names, not %v", x)
	}
	return s, nil
}

// modeItem is a tool-call representation a cleanup rule acts in
// (custom.modes; none: both).
func modeItem(x any) (string, error) {
	s, _ := x.(string)
	if s != "inline" && s != "structured" {
		return "", fmt.Errorf("unknown mode %v (want inline or structured)", x)
	}
	return s, nil
}

// compileRego compiles every module once, with the gather module that
// checks the sets' types (gatherModule), and lists the finding and action
// sets of its packages, each with the query evaluated per document.
func compileRego(ctx context.Context, modules map[string]*ast.Module, pkgPack map[string]string) (*regoProgram, error) {
	gather, err := gatherModule(pkgPack)
	if err != nil {
		return nil, err
	}
	all := make(map[string]*ast.Module, len(modules)+1)
	for k, v := range modules {
		all[k] = v
	}
	all[gatherFile] = gather
	compiler := ast.NewCompiler().WithCapabilities(builtins.Capabilities()).WithEnablePrintStatements(false)
	if compiler.Compile(all); compiler.Failed() {
		return nil, compileErrors(compiler.Errors)
	}
	sets, err := regoSets(compiler, pkgPack, recordSetOrder, setSeverity)
	if err != nil {
		return nil, err
	}
	dsets, err := regoSets(compiler, pkgPack, datasetSetOrder, datasetSets)
	if err != nil {
		return nil, err
	}
	store, txn, err := newRegoStore(ctx)
	if err != nil {
		return nil, err
	}
	regoc, err := prepareRegoc(compiler, pkgPack)
	if err != nil {
		return nil, err
	}
	p := &regoProgram{compiler: compiler, store: store, txn: txn, sets: sets, datasetSets: dsets, modules: compiler.Modules, regoc: regoc}
	regoc.take(p.sets)
	return p, nil
}

var noMetrics = metrics.NoOp()

// eval evaluates the record sets over one document of the given format.
// A finding or action a rule produced malformed is not kept: it is described
// in the returned *OutputError, and the well-formed ones are still returned.
// tracer, when set, follows the evaluation (the memory watchdog's second,
// traced run names the rule).
func (p *regoProgram) eval(ctx context.Context, run *regoRun, input regoInput, format, profile string, cancel topdown.Cancel, tracer topdown.QueryTracer, hits []Hit, acts []Action) ([]Hit, []Action, error) {
	return p.evalSets(ctx, run, p.sets, 0, true, input, format, profile, cancel, tracer, hits, acts)
}

// regoInput is the document Rego evaluates: its value as built, which may
// hold views (document.MessageValue) that the compiled closures read
// (regoc/views.go), and the plain value topdown gets, asked for only when
// topdown runs.
type regoInput struct {
	views ast.Value
	doc   *document.Document // nil: views holds none
}

// plain is the input without views.
func (in regoInput) plain() ast.Value {
	if in.doc != nil {
		return in.doc.Materialized()
	}
	return in.views
}

// evalDataset evaluates the dataset sets over one file's dataset document.
func (p *regoProgram) evalDataset(ctx context.Context, run *regoRun, input ast.Value, format, profile string, cancel topdown.Cancel, hits []Hit) ([]Hit, error) {
	hits, _, err := p.evalSets(ctx, run, p.datasetSets, len(p.sets), false, regoInput{views: input}, format, profile, cancel, nil, hits, nil)
	return hits, err
}

// OutputError lists the findings a pack produced malformed: each one names
// the pack, the rule and what is wrong.
type OutputError struct {
	Problems []string
}

func (e *OutputError) Error() string { return strings.Join(e.Problems, "; ") }

// hitFromObject reads a finding object a Rego rule produced. The rule must
// be declared by a METADATA block, msg must be a string, and severity, when
// given, a known one: a malformed finding is an error, never a finding with
// an empty message.
func (p *regoProgram) hitFromObject(pack string, sev finding.Severity, v any) (Hit, error) {
	o, ok := v.(map[string]any)
	if !ok {
		return Hit{}, fmt.Errorf("pack %s: a finding must be an object, not %s", pack, shortJSON(v))
	}
	id, ok := o["rule"].(string)
	if !ok || id == "" {
		return Hit{}, fmt.Errorf("pack %s: a finding has no rule id: %s", pack, shortJSON(v))
	}
	if _, known := p.rules[id]; !known {
		return Hit{}, fmt.Errorf("pack %s: rule %q is not declared (no METADATA with custom.id %q)", pack, id, id)
	}
	m, has := o["msg"]
	if !has {
		m, has = o["message"]
	}
	msg, ok := m.(string)
	if !ok || msg == "" {
		what := "no msg"
		if has {
			what = "msg " + shortJSON(m) + ", not a non-empty string"
		}
		return Hit{}, fmt.Errorf("pack %s: rule %s: a finding has %s", pack, id, what)
	}
	h := Hit{Rule: id, Pack: pack, Severity: sev, Message: msg}
	if s, has := o["severity"]; has {
		str, _ := s.(string)
		v, err := finding.ParseSeverity(str)
		if err != nil {
			return Hit{}, fmt.Errorf("pack %s: rule %s: a finding has severity %s (want error, warning or info)", pack, id, shortJSON(s))
		}
		h.Severity = v
	}
	h.Target = targetOf(o)
	h.Path, _ = o["path"].(string)
	h.Line = intOr(o["line"], 0)
	return h, nil
}

// targetOf reads the element a finding or action object names: its target
// pointer, else the index keys rules write (message_index, tool_call_index,
// tool_index, entry_index).
func targetOf(o map[string]any) document.Target {
	if t, ok := o["target"].(string); ok {
		return document.Target(t)
	}
	return document.TargetOf(intOr(o["message_index"], -1), intOr(o["tool_call_index"], -1),
		intOr(o["tool_index"], -1), intOr(o["entry_index"], -1))
}

// shortJSON renders a value a rule produced for an error message, cut short.
func shortJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 80 {
		return string(b[:77]) + "..."
	}
	return string(b)
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
