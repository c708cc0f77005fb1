package builtins

import (
	"encoding/json"
	"math/big"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// The validator words a failed bound with both numbers as float64:
// "maximum: got ∞, want ∞" for 1e401 against 1e400, "1×10²³" for an
// integer of 24 digits. numberMessage words it with the numbers as they
// are written, the instance's from the arguments and the bound's from the
// schema, so the message says which value broke which bound.
func (c *CompiledSchema) numberMessage(l *jsonschema.ValidationError, instance any) (string, bool) {
	var keyword string
	var got, want *big.Rat
	switch k := l.ErrorKind.(type) {
	case *kind.Minimum:
		keyword, got, want = "minimum", k.Got, k.Want
	case *kind.Maximum:
		keyword, got, want = "maximum", k.Got, k.Want
	case *kind.ExclusiveMinimum:
		keyword, got, want = "exclusiveMinimum", k.Got, k.Want
	case *kind.ExclusiveMaximum:
		keyword, got, want = "exclusiveMaximum", k.Got, k.Want
	case *kind.MultipleOf:
		keyword, got, want = "multipleOf", k.Got, k.Want
	default:
		return "", false
	}
	g := instanceNumber(instance, l.InstanceLocation)
	if g == "" {
		g = ratText(got)
	}
	w := c.schemaNumber(l.SchemaURL, keyword)
	if w == "" {
		w = ratText(want)
	}
	return keyword + ": got " + g + ", want " + w, true
}

// instanceNumber is the text of the number at the pointer tokens, or "".
func instanceNumber(v any, tokens []string) string {
	for _, t := range tokens {
		switch x := v.(type) {
		case map[string]any:
			v = x[t]
		case []any:
			i := 0
			for _, r := range t {
				i = i*10 + int(r-'0')
			}
			if i < 0 || i >= len(x) {
				return ""
			}
			v = x[i]
		default:
			return ""
		}
	}
	if n, ok := v.(json.Number); ok {
		return string(n)
	}
	return ""
}

// schemaNumber is the text of keyword's number in the subschema the
// validator names (an absolute URL whose fragment is a JSON Pointer into
// the schema), or "".
func (c *CompiledSchema) schemaNumber(url, keyword string) string {
	_, frag, _ := strings.Cut(url, "#")
	var v ast.Value = c.Value
	for _, t := range strings.Split(frag, "/")[1:] {
		t = strings.NewReplacer("~1", "/", "~0", "~").Replace(t)
		switch x := v.(type) {
		case ast.Object:
			m := x.Get(ast.StringTerm(t))
			if m == nil {
				return ""
			}
			v = m.Value
		case *ast.Array:
			m := x.Get(ast.StringTerm(t))
			if m == nil {
				return ""
			}
			v = m.Value
		default:
			return ""
		}
	}
	if o, ok := v.(ast.Object); ok {
		if m := o.Get(ast.StringTerm(keyword)); m != nil {
			v = m.Value
		}
	}
	if n, ok := v.(ast.Number); ok {
		return string(n)
	}
	return ""
}

// ratText writes r exactly: an integer in full, else a fraction.
func ratText(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	return r.RatString()
}
