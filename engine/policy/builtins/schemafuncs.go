package builtins

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/chatlint/chatlint/engine/document"
)

// JSON Schema builtins: tool definitions declare their arguments with a JSON
// Schema, and rules check the arguments of each call against it. Validation
// is the jsonschema library's (draft 2020-12 unless the schema's $schema
// names another draft); a schema is compiled once per distinct content and
// kept in a bounded cache, so a dataset whose records declare the same five
// tools compiles five schemas.
func init() {
	rego.RegisterBuiltin1(&rego.Function{
		Name: "chatlint.schema_problem",
		Decl: types.NewFunction(types.Args(types.A), types.S),
	}, schemaProblem)
	rego.RegisterBuiltin2(&rego.Function{
		Name: "chatlint.schema_errors",
		Decl: types.NewFunction(types.Args(types.A, types.A), types.NewArray(nil, types.NewObject(nil, types.NewDynamicProperty(types.S, types.S)))),
	}, schemaErrors)
}

// schemaProblem returns "" when x is a valid JSON Schema, otherwise why not.
func schemaProblem(_ rego.BuiltinContext, x *ast.Term) (*ast.Term, error) {
	c := Schemas.Get(x.Value)
	if c.Limit != nil {
		return nil, rego.NewHaltError(c.Limit)
	}
	return ast.StringTerm(c.Problem), nil
}

// schemaErrors validates value against schema and returns one object
// {"path": JSON Pointer into value, "msg": what is wrong} per failed
// keyword, in the order of their paths, then of their messages; [] when
// value is valid. It is undefined when
// schema is not a valid JSON Schema (schema_problem says why), so a rule
// does not report a broken schema as broken arguments.
func schemaErrors(_ rego.BuiltinContext, schema, value *ast.Term) (*ast.Term, error) {
	t, err := Schemas.Get(schema.Value).Errors(value.Value)
	if err != nil {
		return nil, rego.NewHaltError(err)
	}
	return t, nil
}

// Errors validates v as schemaErrors does: nil when the schema is broken
// or v is not JSON; a *SchemaLimitError when the schema or the validation
// is beyond the bounds of schemabounds.go. At most maxViolations are
// listed, then one entry counting the rest.
func (c *CompiledSchema) Errors(value ast.Value) (*ast.Term, error) {
	if c.Limit != nil {
		return nil, c.Limit
	}
	if c.Schema == nil {
		return nil, nil
	}
	v, err := ast.JSON(document.Plain(value)) // ast.JSON does not know a view (yamlrule/views.go)
	if err != nil {
		return nil, nil
	}
	if err := checkValidationWork(c.Schema, v); err != nil {
		return nil, err
	}
	err = c.Schema.Validate(v)
	if err == nil {
		return ast.ArrayTerm(), nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return ast.ArrayTerm(ast.ObjectTerm(
			ast.Item(ast.StringTerm("path"), ast.StringTerm("")),
			ast.Item(ast.StringTerm("msg"), ast.StringTerm(err.Error())))), nil
	}
	leaves := leafErrors(ve, nil)
	type leaf struct{ path, msg string }
	ls := make([]leaf, len(leaves))
	for i, l := range leaves {
		if k, ok := l.ErrorKind.(*kind.AdditionalProperties); ok {
			slices.Sort(k.Properties)
		}
		msg, ok := c.numberMessage(l, v) // schemanumbers.go
		if !ok {
			msg = l.ErrorKind.LocalizedString(printer)
		}
		ls[i] = leaf{pointerOf(l.InstanceLocation), msg}
	}
	// The validator walks the members of an object (and a schema's
	// dependencies) in Go's map order, which changes from run to run: sorted,
	// the same arguments always read the same.
	slices.SortFunc(ls, func(a, b leaf) int {
		if c := strings.Compare(a.path, b.path); c != 0 {
			return c
		}
		return strings.Compare(a.msg, b.msg)
	})
	if more := len(ls) - maxViolations; more > 0 {
		ls = append(ls[:maxViolations], leaf{"", fmt.Sprintf("and %d more violations", more)})
	}
	out := make([]*ast.Term, len(ls))
	for i, l := range ls {
		out[i] = ast.ObjectTerm(
			ast.Item(ast.StringTerm("path"), ast.StringTerm(l.path)),
			ast.Item(ast.StringTerm("msg"), ast.StringTerm(l.msg)))
	}
	return ast.ArrayTerm(out...), nil
}

var printer = message.NewPrinter(language.English)

// leafErrors are the errors without causes: the keywords that failed, where
// their parents only say "validation failed".
func leafErrors(e *jsonschema.ValidationError, out []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return append(out, e)
	}
	for _, c := range e.Causes {
		out = leafErrors(c, out)
	}
	return out
}

func pointerOf(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(EscapePointer(t))
	}
	return b.String()
}

// CompiledSchema is a schema compiled, or why it could not be.
type CompiledSchema struct {
	Value   ast.Value
	Schema  *jsonschema.Schema
	Problem string
	Limit   *SchemaLimitError // not compiled: beyond schemabounds.go's limits
}

// Checked returns c, or panics with its limit error: for the YAML rules,
// whose evaluation turns that panic into the record's error
// (evaluate_recover.go).
func (c *CompiledSchema) Checked() *CompiledSchema {
	if c.Limit != nil {
		panic(c.Limit)
	}
	return c
}

// schemaCacheSize bounds the compiled schemas kept: a dataset declares few
// distinct tools, and one that declares more only compiles again.
const SchemaCacheSize = 512

// schemaCache maps a schema's content (OPA's value hash, then equality) to
// its compiled form. Safe for concurrent use by every worker.
type schemaCache struct {
	mu       sync.Mutex
	byHash   map[int][]*CompiledSchema
	n        int
	compiles atomic.Int64
}

var Schemas = &schemaCache{byHash: map[int][]*CompiledSchema{}}

// SchemaCompiles returns how many schemas were compiled since the program
// started: tests prove with it that identical schemas compile once.
func SchemaCompiles() int64 { return Schemas.compiles.Load() }

func (c *schemaCache) Get(v ast.Value) *CompiledSchema {
	v = document.Plain(v) // kept, and compared with Compare (yamlrule/views.go)
	h := v.Hash()
	c.mu.Lock()
	for _, e := range c.byHash[h] {
		if e.Value.Compare(v) == 0 {
			c.mu.Unlock()
			return e
		}
	}
	c.mu.Unlock()
	e := compileSchema(v)
	c.compiles.Add(1)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n >= SchemaCacheSize { // full: start again rather than track use
		clear(c.byHash)
		c.n = 0
	}
	if !slices.ContainsFunc(c.byHash[h], func(x *CompiledSchema) bool { return x.Value.Compare(v) == 0 }) {
		c.byHash[h] = append(c.byHash[h], e)
		c.n++
	}
	return e
}

// schemaURL names every compiled schema; it is never fetched.
const schemaURL = "chatlint:tool-schema.json"

// compileSchema compiles one schema with a loader that loads nothing: a $ref
// to another document (a file, a URL) is a problem of the schema, never a
// read of the disk or the network.
func compileSchema(v ast.Value) *CompiledSchema {
	out := &CompiledSchema{Value: v}
	doc, err := ast.JSON(v)
	if err != nil {
		out.Problem = "it is not JSON"
		return out
	}
	switch doc.(type) {
	case map[string]any, bool:
	default:
		out.Problem = fmt.Sprintf("a schema must be an object or a boolean, not %s", jsonTypeName(doc))
		return out
	}
	if schemaDepth(v, maxSchemaDepth) > maxSchemaDepth {
		out.Limit = &SchemaLimitError{Msg: fmt.Sprintf("the schema nests deeper than %d levels", maxSchemaDepth)}
		return out
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noLoader{})
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(schemaURL, doc); err != nil {
		out.Problem = schemaMessage(err)
		return out
	}
	s, err := c.Compile(schemaURL)
	if err != nil {
		out.Problem = schemaMessage(err)
		return out
	}
	out.Schema = s
	return out
}

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("chatlint does not load schemas from elsewhere (%s)", url)
}

// schemaMessage words a compile error: the metaschema's complaints with
// the place in the schema they are about, without the library's URLs.
func schemaMessage(err error) string {
	var se *jsonschema.SchemaValidationError
	if errors.As(err, &se) {
		var ve *jsonschema.ValidationError
		if errors.As(se.Err, &ve) {
			var parts []string
			for _, l := range leafErrors(ve, nil) {
				p := pointerOf(l.InstanceLocation)
				if p == "" {
					p = "/"
				}
				parts = append(parts, fmt.Sprintf("at %s: %s", p, l.ErrorKind.LocalizedString(printer)))
			}
			slices.Sort(parts)
			parts = slices.Compact(parts)
			if more := len(parts) - maxViolations; more > 0 {
				parts = append(parts[:maxViolations], fmt.Sprintf("and %d more", more))
			}
			return strings.Join(parts, "; ")
		}
	}
	return strings.ReplaceAll(err.Error(), schemaURL, "the schema")
}

func jsonTypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case []any:
		return "an array"
	case bool:
		return "a boolean"
	}
	return "a number"
}

// chatlint.call_schema_errors(doc) validates, in one pass over a normalized
// document, the arguments of every tool call against the JSON Schema of the
// tool it names (the first of doc.tools with that name and an object
// parameters): [[message index, call index, errors]] for each call with
// violations, errors as schema_errors gives them. Calls whose arguments do
// not parse to an object, or whose tool declares no schema or a broken one,
// are left to other rules. It exists for speed: a rule doing the same
// lookups per call in Rego cost several times the validation itself. It
// visits only the messages doc.lookup.calls names (every message when the
// document has no lookup), looks the schemas up once per tools list, and
// takes the parsed arguments from the parse the arguments rules already
// made (textcache.go).
func init() {
	rego.RegisterBuiltin1(&rego.Function{
		Name: "chatlint.call_schema_errors",
		Decl: types.NewFunction(types.Args(types.A), types.NewArray(nil, types.A)),
	}, callSchemaErrors)
}

var (
	termTools      = ast.StringTerm("tools")
	termMessages   = ast.StringTerm("messages")
	termToolCalls  = ast.StringTerm("tool_calls")
	termName       = ast.StringTerm("name")
	termParameters = ast.StringTerm("parameters")
	termArguments  = ast.StringTerm("arguments")
	termIndex      = ast.StringTerm("index")
	termLookup     = ast.StringTerm("lookup")
	termCalls      = ast.StringTerm("calls")
	emptyArrayTerm = ast.ArrayTerm()
)

func callSchemaErrors(_ rego.BuiltinContext, doc *ast.Term) (*ast.Term, error) {
	var limit error
	t := callSchemaErrorsOf(doc, &limit)
	if limit != nil {
		return nil, rego.NewHaltError(limit)
	}
	return t, nil
}

// callSchemaErrorsOf is callSchemaErrors; a validation beyond the bounds
// stops it and sets *limit.
func callSchemaErrorsOf(doc *ast.Term, limit *error) *ast.Term {
	o, ok := doc.Value.(ast.Object)
	if !ok {
		return nil
	}
	byName := toolSchemas.of(o.Get(termTools))
	if len(byName) == 0 { // no declared tool has a schema: nothing to validate
		return emptyArrayTerm
	}
	msgs, _ := valueOf(o, termMessages).(*ast.Array)
	if msgs == nil {
		return emptyArrayTerm
	}
	var out []*ast.Term
	visit := func(i int) {
		m, _ := msgs.Elem(i).Value.(ast.Object)
		calls, _ := valueOf(m, termToolCalls).(*ast.Array)
		for j := 0; calls != nil && j < calls.Len() && *limit == nil; j++ {
			c, _ := calls.Elem(j).Value.(ast.Object)
			name, _ := valueOf(c, termName).(ast.String)
			schema := byName[string(name)]
			if schema == nil {
				continue
			}
			var args ast.Value
			switch a := valueOf(c, termArguments).(type) {
			case ast.Object:
				args = a
			case ast.String:
				if v, ok := JSONText(a); ok {
					args = v
				}
			}
			if _, isObj := args.(ast.Object); !isObj {
				continue
			}
			errs, err := schema.Errors(args)
			if err != nil {
				*limit = err
				return
			}
			if errs == nil || errs.Value.(*ast.Array).Len() == 0 {
				continue
			}
			out = append(out, ast.ArrayTerm(valueTerm(m, termIndex, i), valueTerm(c, termIndex, j), errs))
		}
	}
	if idx, ok := callMessages(o, msgs.Len()); ok {
		for _, i := range idx {
			visit(i)
		}
	} else {
		for i := 0; i < msgs.Len(); i++ {
			visit(i)
		}
	}
	return ast.ArrayTerm(out...)
}

// callMessages are the indexes, in order, of the messages that make tool
// calls, read from the document's lookup.calls ([message index, id] pairs);
// ok is false when the document has no such index.
func callMessages(doc ast.Object, n int) (idx []int, ok bool) {
	lookup, _ := valueOf(doc, termLookup).(ast.Object)
	calls, isSet := valueOf(lookup, termCalls).(ast.Set)
	if !isSet {
		return nil, false
	}
	bad := false
	calls.Foreach(func(t *ast.Term) {
		pair, _ := t.Value.(*ast.Array)
		if pair == nil || pair.Len() != 2 {
			bad = true
			return
		}
		num, _ := pair.Elem(0).Value.(ast.Number)
		i, isInt := num.Int()
		if !isInt || i < 0 || i >= n {
			bad = true
			return
		}
		if k := len(idx); k == 0 || idx[k-1] != i {
			idx = append(idx, i)
		}
	})
	if bad {
		return nil, false
	}
	slices.Sort(idx)
	return slices.Compact(idx), true
}

// toolSchemaCache remembers the schemas of the latest tools list by its
// identity: records that repeat one tools list share its normalized term
// (engine/document's shared tools), so the schemas are looked up once for
// all of them instead of once per call.
type toolSchemaCache struct {
	last atomic.Pointer[toolSchemaEntry]
}

type toolSchemaEntry struct {
	tools  *ast.Term
	byName map[string]*CompiledSchema
}

var toolSchemas toolSchemaCache

// of maps each tool name of a tools list to the compiled schema of the
// first tool of that name whose parameters are an object.
func (c *toolSchemaCache) of(tools *ast.Term) map[string]*CompiledSchema {
	if tools == nil {
		return nil
	}
	if e := c.last.Load(); e != nil && e.tools == tools {
		return e.byName
	}
	arr, _ := tools.Value.(*ast.Array)
	if arr == nil || arr.Len() == 0 {
		return nil
	}
	byName := map[string]*CompiledSchema{}
	for i := 0; i < arr.Len(); i++ {
		t, _ := arr.Elem(i).Value.(ast.Object)
		name, _ := valueOf(t, termName).(ast.String)
		p := valueOf(t, termParameters)
		if _, isObj := p.(ast.Object); !isObj {
			continue
		}
		if _, seen := byName[string(name)]; !seen {
			byName[string(name)] = Schemas.Get(p)
		}
	}
	c.last.Store(&toolSchemaEntry{tools: tools, byName: byName})
	return byName
}

func valueOf(o ast.Object, k *ast.Term) ast.Value {
	if o == nil {
		return nil
	}
	if t := o.Get(k); t != nil {
		return t.Value
	}
	return nil
}

// valueTerm is o[k], or the number def when o has no such member.
func valueTerm(o ast.Object, k *ast.Term, def int) *ast.Term {
	if t := o.Get(k); t != nil {
		return t
	}
	return ast.IntNumberTerm(def)
}
