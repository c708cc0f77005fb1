package yamlrule

// Value lets that call the Go functions behind chatlint's Rego builtins, so a
// YAML rule can say what the finetune pack's default-profile rules say
// without OPA:
//
//   - {schema_errors: PATH, schema: PATH}: the violations of the value at
//     the first PATH (an object, or a string holding the JSON text of one:
//     tool-call arguments) against the JSON Schema at the second, as
//     chatlint.schema_errors finds them (the same compiled schemas, cached by
//     content), written `PATH/pointer: message` and joined with "; ";
//     absent when the value is valid, is not an object, or the schema is
//     missing or not a valid schema (tool-schema-invalid's finding).
//   - {distinct: [PATH, ...]}: the distinct non-empty strings at the
//     document paths given (`tools[*].name`, `raw.functions[*].name`),
//     sorted and joined with ", "; absent when there is none.
//
// rel.go calls compileFnLet for every let and fnLet.value for a let
// compiled here.

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/chatlint/chatlint/engine/policy/builtins"
	"github.com/open-policy-agent/opa/v1/ast"
)

type fnLet struct {
	// schema_errors
	of, schema []seg
	label      string
	// distinct: each path split at its last [*], the walk and the member
	walks   [][]step
	members [][]seg
}

// compileFnLet compiles ly when it is one of this file's forms; ok is false
// when it is none of them.
func compileFnLet(ly letYAML) (f *fnLet, ok bool, err error) {
	switch {
	case ly.SchemaErrors != "" || ly.Schema != "":
		if ly.SchemaErrors == "" || ly.Schema == "" {
			return nil, true, fmt.Errorf("schema_errors needs schema: the path of the JSON Schema")
		}
		return &fnLet{of: parsePath(ly.SchemaErrors), schema: parsePath(ly.Schema), label: ly.SchemaErrors}, true, nil
	case len(ly.Distinct) > 0:
		f := &fnLet{}
		for _, p := range ly.Distinct {
			i := strings.LastIndex(p, "[*]")
			if i < 0 || !strings.HasPrefix(p[i:], "[*].") {
				return nil, true, fmt.Errorf("distinct: %q: want a path such as tools[*].name", p)
			}
			steps, err := parseGiven(p[:i+3])
			if err != nil {
				return nil, true, fmt.Errorf("distinct: %v", err)
			}
			f.walks = append(f.walks, steps)
			f.members = append(f.members, parsePath(p[i+4:]))
		}
		return f, true, nil
	}
	return nil, false, nil
}

// value computes the let for the element v (in scope sc).
func (f *fnLet) value(v ast.Value, sc *scope) ast.Value {
	if f.walks != nil {
		return f.distinct(sc)
	}
	schema, _ := lookupValue(v, f.schema, sc).(ast.Object)
	if schema == nil {
		return nil
	}
	var args ast.Value
	switch a := lookupValue(v, f.of, sc).(type) {
	case ast.Object:
		args = a
	case ast.String:
		args, _ = builtins.JSONText(a)
	}
	if _, isObj := args.(ast.Object); !isObj {
		return nil
	}
	cs := lastSchema.of(schema)
	if yamlShortcuts {
		if q := quickOf(cs); q != nil && q.valid(args) { // schemaquick.go
			return nil
		}
	}
	errs, err := cs.Errors(args)
	if err != nil {
		panic(err) // the record's error: evaluate_recover.go
	}
	arr, _ := errsValue(errs).(*ast.Array)
	if arr == nil || arr.Len() == 0 {
		return nil
	}
	parts := make([]string, arr.Len())
	for i := range parts {
		e := arr.Elem(i).Value.(ast.Object)
		parts[i] = f.label + stringOf(e.Get(ast.StringTerm("path"))) + ": " + stringOf(e.Get(ast.StringTerm("msg")))
	}
	return ast.String(strings.Join(parts, "; "))
}

func errsValue(t *ast.Term) ast.Value {
	if t == nil {
		return nil
	}
	return t.Value
}

func (f *fnLet) distinct(sc *scope) ast.Value {
	var names []string
	for i, steps := range f.walks {
		walkSteps(steps, sc.doc, steps, newScope(sc.doc), nil, func(el ast.Value, _ scope) {
			if s, ok := lookupValue(el, f.members[i], &scope{}).(ast.String); ok && s != "" {
				names = append(names, string(s))
			}
		})
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	return ast.String(strings.Join(slices.Compact(names), ", "))
}

// lastSchema remembers the compiled forms of the latest schemas by identity:
// records that repeat one tools list share its normalized terms, so the
// schema of a call's tool is found without hashing and comparing its content
// (which schemas.get does, once per distinct schema object).
var lastSchema schemaIdentity

const recentSchemas = 8

type schemaIdentity struct {
	slots [recentSchemas]atomic.Pointer[builtins.CompiledSchema]
	next  atomic.Uint32
}

func (c *schemaIdentity) of(v ast.Object) *builtins.CompiledSchema {
	for i := range c.slots {
		if e := c.slots[i].Load(); e != nil && e.Value == ast.Value(v) {
			return e
		}
	}
	e := builtins.Schemas.Get(v)
	if e.Value != ast.Value(v) { // the cache holds an equal schema object: remember this one
		e = &builtins.CompiledSchema{Value: v, Schema: e.Schema, Problem: e.Problem, Limit: e.Limit}
	}
	c.slots[c.next.Add(1)%recentSchemas].Store(e)
	return e
}
