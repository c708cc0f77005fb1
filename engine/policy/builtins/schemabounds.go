package builtins

import (
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// A tool's JSON Schema comes from the data, and the jsonschema library
// compiles and validates in one call nothing can interrupt: 26 nested anyOf
// of two $refs (2 KB) is 2^26 branches to validate, properties nested 1,600
// deep takes minutes to compile, and each failed branch is one more
// violation to list. So a schema is measured before the library runs: one
// nested deeper than maxSchemaDepth is not compiled, and arguments are
// validated only when a walk of the compiled schema over them, counting
// the (subschema, value) pairs validation may visit, stays within
// validationSteps. Either limit makes the record a policy-error ("not
// checked"), not a finding: the schema is not wrong, only too costly.
const (
	// maxSchemaDepth bounds the nesting of a schema document (objects and
	// arrays): compilation grows with its cube; 128 levels compile in a
	// tenth of a second. Real tool schemas nest a dozen.
	maxSchemaDepth = 128
	// baseSteps plus stepsPerValue for each value of the arguments is the
	// work allowed: about a second of validation when every branch fails.
	baseSteps     = 1 << 15
	stepsPerValue = 4
	// maxViolations is how many violations one validation lists; the rest
	// are counted in a last entry.
	maxViolations = 20
)

// SchemaLimitError is a schema, or a validation against one, beyond the
// bounds above. Evaluation stops on it and reports the record as not
// checked (evaluate_recover.go).
type SchemaLimitError struct{ Msg string }

func (e *SchemaLimitError) Error() string {
	return "JSON Schema not applied: " + e.Msg + "; the record was not checked"
}

// schemaDepth returns the nesting depth of v, stopping once it passes max.
func schemaDepth(v ast.Value, max int) int {
	var deepest int
	var walk func(v ast.Value, d int)
	walk = func(v ast.Value, d int) {
		if d > deepest {
			deepest = d
		}
		if deepest > max {
			return
		}
		switch x := v.(type) {
		case ast.Object:
			x.Foreach(func(_, t *ast.Term) { walk(t.Value, d+1) })
		case *ast.Array:
			x.Foreach(func(t *ast.Term) { walk(t.Value, d+1) })
		}
	}
	walk(v, 1)
	return deepest
}

// stepWalk counts the (subschema, value) pairs validating a value may
// visit, as the validator applies keywords: every branch of allOf, anyOf
// and oneOf, $ref, the conditionals, and the keywords that apply to members
// and items. It over-counts (anyOf may stop at a match, a pattern may not
// match), which only makes the bound safer.
type stepWalk struct {
	steps, limit int
}

// within reports whether validating v against s stays within the limit.
func (w *stepWalk) within(s *jsonschema.Schema, v any) bool {
	return w.walk(s, v, 0)
}

// maxWalkDepth bounds the recursion of the walk itself: $refs that loop
// without going into the value (a schema that refers to itself) would
// otherwise recurse until the limit.
const maxWalkDepth = 1000

func (w *stepWalk) walk(s *jsonschema.Schema, v any, depth int) bool {
	if s == nil {
		return true
	}
	w.steps++
	if w.steps > w.limit || depth > maxWalkDepth {
		return false
	}
	d := depth + 1
	ok := w.walk(s.Ref, v, d) && w.walk(s.RecursiveRef, v, d) && w.walk(s.Not, v, d) &&
		w.walk(s.If, v, d) && w.walk(s.Then, v, d) && w.walk(s.Else, v, d)
	if s.DynamicRef != nil {
		ok = ok && w.walk(s.DynamicRef.Ref, v, d)
	}
	for _, list := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf} {
		for _, sub := range list {
			ok = ok && w.walk(sub, v, d)
		}
	}
	if !ok {
		return false
	}
	switch x := v.(type) {
	case map[string]any:
		for _, sub := range s.DependentSchemas {
			if !w.walk(sub, v, d) {
				return false
			}
		}
		for k, mv := range x {
			if !w.walk(s.PropertyNames, k, d) || !w.walk(s.Properties[k], mv, d) ||
				!w.walk(schemaOf(s.AdditionalProperties), mv, d) || !w.walk(s.UnevaluatedProperties, mv, d) {
				return false
			}
			for _, sub := range s.PatternProperties {
				if !w.walk(sub, mv, d) {
					return false
				}
			}
		}
	case []any:
		for i, iv := range x {
			var item *jsonschema.Schema
			if i < len(s.PrefixItems) {
				item = s.PrefixItems[i]
			}
			switch its := s.Items.(type) {
			case *jsonschema.Schema:
				item = its
			case []*jsonschema.Schema:
				if i < len(its) {
					item = its[i]
				}
			}
			if !w.walk(item, iv, d) || !w.walk(s.Items2020, iv, d) || !w.walk(schemaOf(s.AdditionalItems), iv, d) ||
				!w.walk(s.Contains, iv, d) || !w.walk(s.UnevaluatedItems, iv, d) {
				return false
			}
		}
	}
	return true
}

func schemaOf(x any) *jsonschema.Schema {
	s, _ := x.(*jsonschema.Schema)
	return s
}

// valueCount counts the values of a decoded JSON document.
func valueCount(v any) int {
	n := 1
	switch x := v.(type) {
	case map[string]any:
		for _, mv := range x {
			n += valueCount(mv)
		}
	case []any:
		for _, iv := range x {
			n += valueCount(iv)
		}
	}
	return n
}

// checkValidationWork returns a *SchemaLimitError when validating v against
// s may take more than the work allowed for v's size.
func checkValidationWork(s *jsonschema.Schema, v any) error {
	w := stepWalk{limit: baseSteps + stepsPerValue*valueCount(v)}
	if w.within(s, v) {
		return nil
	}
	return &SchemaLimitError{Msg: fmt.Sprintf("validating the arguments would take more than %d steps (nested anyOf, oneOf or $ref branches multiply)", w.limit)}
}
