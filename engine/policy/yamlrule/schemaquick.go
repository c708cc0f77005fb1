package yamlrule

// A quick yes for schema_errors. Nearly every tool declares its arguments
// with a handful of keywords (type, properties, required, enum of strings,
// items, additionalProperties), and nearly every call's arguments satisfy
// them; the validator still converted the arguments to Go values and walked
// them with its own bookkeeping, allocating as it went. A schema written
// only with those keywords gets a quickSchema, which walks the arguments as
// OPA values and answers "valid" or "cannot say"; only "cannot say" (a
// violation, or a value it does not judge, such as a number that is not a
// plain integer) goes on to the validator, which gives the messages. So the
// violations, their order and their wording stay the validator's.

import (
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/chatlint/chatlint/engine/policy/builtins"
	"github.com/open-policy-agent/opa/v1/ast"
)

// quickSchema is one schema (or subschema) in the quick form.
type quickSchema struct {
	always   bool  // the schema true, or one with annotations only
	types    uint8 // the types allowed (the q* bits below); 0: any
	props    map[string]*quickSchema
	propKeys []*ast.Term // props' names, and their schemas in propVals
	propVals []*quickSchema
	required []*ast.Term
	closed   bool         // additionalProperties: false
	extra    *quickSchema // additionalProperties as a schema
	enum     []string     // nil: no enum; a string enum only
	hasEnum  bool
	items    *quickSchema
}

const (
	qObject uint8 = 1 << iota
	qArray
	qString
	qNumber
	qInteger
	qBoolean
	qNull
)

var quickTypes = map[string]uint8{"object": qObject, "array": qArray, "string": qString, "number": qNumber, "integer": qInteger, "boolean": qBoolean, "null": qNull}

// quickAnnotations are the keywords that never fail a value.
var quickAnnotations = map[string]bool{"description": true, "title": true, "default": true, "examples": true, "$comment": true, "deprecated": true, "readOnly": true, "writeOnly": true}

// compileQuick returns the quick form of schema v, or nil when v uses a
// keyword or a form the quick form does not judge (any keyword but the few
// above and annotations: $schema, $ref, format, minimum, pattern …).
func compileQuick(v ast.Value) *quickSchema {
	switch s := v.(type) {
	case ast.Boolean:
		if s {
			return &quickSchema{always: true}
		}
		return nil
	case ast.Object:
		q := &quickSchema{}
		ok := true
		s.Foreach(func(k, val *ast.Term) {
			if !ok {
				return
			}
			key, isStr := k.Value.(ast.String)
			if !isStr {
				ok = false
				return
			}
			switch name := string(key); {
			case quickAnnotations[name]:
			case name == "type":
				ok = q.setTypes(val.Value)
			case name == "properties":
				props, isObj := val.Value.(ast.Object)
				if !isObj {
					ok = false
					return
				}
				q.props = make(map[string]*quickSchema, props.Len())
				props.Foreach(func(pk, pv *ast.Term) {
					ps, isStr := pk.Value.(ast.String)
					sub := compileQuick(pv.Value)
					if !isStr || sub == nil {
						ok = false
						return
					}
					q.props[string(ps)] = sub
					q.propKeys = append(q.propKeys, ast.StringTerm(string(ps)))
					q.propVals = append(q.propVals, sub)
				})
			case name == "required":
				arr, isArr := val.Value.(*ast.Array)
				if !isArr {
					ok = false
					return
				}
				for i := 0; i < arr.Len(); i++ {
					r, isStr := arr.Elem(i).Value.(ast.String)
					if !isStr {
						ok = false
						return
					}
					q.required = append(q.required, ast.StringTerm(string(r)))
				}
			case name == "enum":
				arr, isArr := val.Value.(*ast.Array)
				if !isArr {
					ok = false
					return
				}
				q.hasEnum = true
				for i := 0; i < arr.Len(); i++ {
					e, isStr := arr.Elem(i).Value.(ast.String)
					if !isStr {
						ok = false
						return
					}
					q.enum = append(q.enum, string(e))
				}
			case name == "items":
				if q.items = compileQuick(val.Value); q.items == nil {
					ok = false
				}
			case name == "additionalProperties":
				switch b := val.Value.(type) {
				case ast.Boolean:
					q.closed = !bool(b)
				default:
					if q.extra = compileQuick(val.Value); q.extra == nil {
						ok = false
					}
				}
			default:
				ok = false
			}
		})
		if !ok {
			return nil
		}
		q.always = q.types == 0 && q.props == nil && q.required == nil && !q.closed &&
			q.extra == nil && !q.hasEnum && q.items == nil
		return q
	}
	return nil
}

func (q *quickSchema) setTypes(v ast.Value) bool {
	switch t := v.(type) {
	case ast.String:
		b, ok := quickTypes[string(t)]
		q.types |= b
		return ok
	case *ast.Array:
		if t.Len() == 0 {
			return false
		}
		for i := 0; i < t.Len(); i++ {
			s, isStr := t.Elem(i).Value.(ast.String)
			if !isStr {
				return false
			}
			b, ok := quickTypes[string(s)]
			if !ok {
				return false
			}
			q.types |= b
		}
		return true
	}
	return false
}

// valid reports whether v certainly satisfies q; false means the
// validator has to say.
func (q *quickSchema) valid(v ast.Value) bool {
	if q.always {
		return true
	}
	if q.types != 0 && !q.typeOK(v) {
		return false
	}
	if q.hasEnum {
		s, ok := v.(ast.String)
		if !ok {
			return false
		}
		found := false
		for _, e := range q.enum {
			if e == string(s) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	switch x := v.(type) {
	case ast.Object:
		for _, r := range q.required {
			if x.Get(r) == nil {
				return false
			}
		}
		// the declared properties by lookup: a closure over the members
		// would be allocated per object (Foreach is an interface method)
		seen := 0
		for i, k := range q.propKeys {
			if t := x.Get(k); t != nil {
				seen++
				if !q.propVals[i].valid(t.Value) {
					return false
				}
			}
		}
		if seen == x.Len() || (!q.closed && q.extra == nil) {
			return true
		}
		if q.closed { // an undeclared member of a closed object
			return false
		}
		ok := true // additionalProperties is a schema: the undeclared members
		x.Foreach(func(k, val *ast.Term) {
			ks, isStr := k.Value.(ast.String)
			switch {
			case !ok:
			case !isStr:
				ok = false
			case q.props[string(ks)] == nil:
				ok = q.extra.valid(val.Value)
			}
		})
		return ok
	case *ast.Array:
		if q.items == nil {
			return true
		}
		for i := 0; i < x.Len(); i++ {
			if !q.items.valid(x.Elem(i).Value) {
				return false
			}
		}
	}
	return true
}

func (q *quickSchema) typeOK(v ast.Value) bool {
	var t uint8
	switch x := v.(type) {
	case ast.Object:
		t = qObject
	case *ast.Array:
		t = qArray
	case ast.String:
		t = qString
	case ast.Boolean:
		t = qBoolean
	case ast.Null:
		t = qNull
	case ast.Number:
		if q.types&qNumber != 0 {
			return true
		}
		// integer: a plain integer literal only; 1.0 or 1e3 go to the
		// validator, which knows what the draft counts as an integer
		if _, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			t = qInteger
		}
	}
	return q.types&t != 0
}

// quickForms holds the quick form of each compiled schema (nil: none), by
// the validator's schema, which the schema cache keeps one of per distinct
// content. Bounded: cleared when full, as the schema cache is.
var quickForms struct {
	m sync.Map // *jsonschema.Schema (c.schema) -> *quickSchema
	n atomic.Int64
}

// quickOf returns c's quick form, or nil.
func quickOf(c *builtins.CompiledSchema) *quickSchema {
	if c.Schema == nil {
		return nil
	}
	if q, ok := quickForms.m.Load(c.Schema); ok {
		return q.(*quickSchema)
	}
	q := compileQuick(c.Value)
	if quickForms.n.Add(1) > 2*builtins.SchemaCacheSize {
		quickForms.m.Clear()
		quickForms.n.Store(1)
	}
	quickForms.m.Store(c.Schema, q)
	return q
}
