package builtins

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"

	"github.com/chatlint/chatlint/engine/astjson"
)

// Custom builtins available to every policy. They exist where plain Rego would
// need `walk` or a slow re-parse on the hot path; each does one generic thing
// and decides nothing about conversations.
func init() {
	rego.RegisterBuiltin1(&rego.Function{
		Name:             "chatlint.json_payload",
		Decl:             types.NewFunction(types.Args(types.A), types.A),
		Memoize:          false,
		Nondeterministic: false,
	}, JSONPayload)
	rego.RegisterBuiltin2(&rego.Function{
		Name: "chatlint.truthy_keys",
		Decl: types.NewFunction(types.Args(types.A, types.NewSet(types.S)), types.NewArray(nil, types.S)),
	}, TruthyKeys)
}

// jsonPayload returns x itself when it is an object or array, and the parsed
// value when x is a string whose trimmed text starts with { and ends with }, or
// starts with [ and ends with ], and is valid JSON. Otherwise it is undefined.
func JSONPayload(_ rego.BuiltinContext, x *ast.Term) (*ast.Term, error) {
	switch v := x.Value.(type) {
	case ast.Object, *ast.Array:
		return x, nil
	case ast.String:
		// Checked on the string, so that text which is not JSON is not copied.
		t := strings.TrimSpace(string(v))
		if len(t) < 2 {
			return nil, nil
		}
		if !(t[0] == '{' && t[len(t)-1] == '}') && !(t[0] == '[' && t[len(t)-1] == ']') {
			return nil, nil
		}
		val, err := astjson.Decode([]byte(t))
		if err != nil {
			return nil, nil
		}
		return ast.NewTerm(val), nil
	}
	return nil, nil
}

// truthyKeys returns the JSON Pointers of every object member, at any depth of
// x, whose key (compared case-insensitively) is in keys and whose value is
// truthy: not null, false, 0, "", [] or {}.
func TruthyKeys(_ rego.BuiltinContext, x, keys *ast.Term) (*ast.Term, error) {
	set, ok := keys.Value.(ast.Set)
	if !ok {
		return nil, nil
	}
	w := TruthyWalk{Want: make([]string, 0, set.Len())}
	set.Foreach(func(t *ast.Term) {
		if s, ok := t.Value.(ast.String); ok {
			w.Want = append(w.Want, strings.ToLower(string(s)))
		}
	})
	w.Visit(x.Value)
	return ast.ArrayTerm(w.Out...), nil
}

// truthyWalk walks a value for truthy_keys. It keeps the path to the
// current member as tokens and writes a pointer only for a member it
// reports: most members are not, and building every member's pointer was
// most of the builtin's time.
type TruthyWalk struct {
	Want []string
	path []pathToken
	Out  []*ast.Term
}

// Reset readies w for a walk that reports the keys of want, keeping its
// buffers.
func (w *TruthyWalk) Reset(want []string) {
	w.Want, w.path, w.Out = want, w.path[:0], w.Out[:0]
}

// pathToken is an object key (index < 0) or an array index.
type pathToken struct {
	key   string
	index int
}

func (w *TruthyWalk) Visit(v ast.Value) {
	switch v := v.(type) {
	case ast.Object:
		v.Foreach(func(k, val *ast.Term) {
			ks, ok := k.Value.(ast.String)
			if !ok {
				return
			}
			w.path = append(w.path, pathToken{key: string(ks), index: -1})
			if w.wanted(string(ks)) && Truthy(val.Value) {
				w.Out = append(w.Out, ast.StringTerm(w.pointer()))
			}
			w.Visit(val.Value)
			w.path = w.path[:len(w.path)-1]
		})
	case *ast.Array:
		for i := 0; i < v.Len(); i++ {
			w.path = append(w.path, pathToken{index: i})
			w.Visit(v.Elem(i).Value)
			w.path = w.path[:len(w.path)-1]
		}
	}
}

// wanted reports whether strings.ToLower(k) is one of the keys, without
// lower-casing an ASCII key: for one, that is strings.EqualFold with a key of
// the same length (a lower-cased key folding to ASCII another way, such as
// "ſ", is longer in bytes).
func (w *TruthyWalk) wanted(k string) bool {
	for i := 0; i < len(k); i++ {
		if k[i] >= utf8.RuneSelf {
			return slices.Contains(w.Want, strings.ToLower(k))
		}
	}
	for _, x := range w.Want {
		if len(x) == len(k) && strings.EqualFold(k, x) {
			return true
		}
	}
	return false
}

// pointer is the JSON Pointer (RFC 6901) of the current member.
func (w *TruthyWalk) pointer() string {
	var b strings.Builder
	for _, t := range w.path {
		b.WriteByte('/')
		if t.index >= 0 {
			b.WriteString(strconv.Itoa(t.index))
		} else {
			b.WriteString(EscapePointer(t.key))
		}
	}
	return b.String()
}

// truthy reports whether v counts as a set flag: anything but null, false, 0,
// "", [] and {}.
func Truthy(v ast.Value) bool {
	switch v := v.(type) {
	case ast.Null:
		return false
	case ast.Boolean:
		return bool(v)
	case ast.Number:
		f, ok := v.Float64()
		return !ok || f != 0
	case ast.String:
		return v != ""
	case *ast.Array:
		return v.Len() > 0
	case ast.Object:
		return v.Len() > 0
	case ast.Set:
		return v.Len() > 0
	}
	return true
}

// escapePointer escapes a key for use in a JSON Pointer (RFC 6901).
func EscapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return pointerEscaper.Replace(s)
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")
