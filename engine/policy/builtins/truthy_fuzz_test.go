package builtins

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/chatlint/chatlint/engine/astjson"
)

// FuzzTruthyKeys checks truthy_keys against its definition written the
// plain way: the pointer of every member built as the walk goes, keys
// lower-cased with strings.ToLower.
func FuzzTruthyKeys(f *testing.F) {
	for _, s := range []string{
		`{"a": [{"Error": "boom"}], "timeout": 0, "missing": {}}`,
		`{"a/b": [0, {"x~y": {"ERROR": 1, "error": {"missing": "yes"}}}]}`,
		`{"\u0130ncomplete": 1, "\u212aey": 1, "mi\u017fsing": 1, "TIMEOUT": [0]}`,
		`[[[{"incomplete": true}]], "error", {"": {"error": 0.5}}]`,
		`{"MISSING": 1, "MI\u017fSING": 1, "mis": 1}`,
	} {
		f.Add(s)
	}
	keys := ast.SetTerm(ast.StringTerm("error"), ast.StringTerm("timeout"), ast.StringTerm("missing"),
		ast.StringTerm("incomplete"), ast.StringTerm("key"), ast.StringTerm(""), ast.StringTerm("mi\u017fsing"))
	f.Fuzz(func(t *testing.T, s string) {
		v, err := astjson.Decode([]byte(s))
		if err != nil {
			return
		}
		got, err := TruthyKeys(rego.BuiltinContext{}, ast.NewTerm(v), keys)
		if err != nil {
			t.Fatal(err)
		}
		want := plainTruthyKeys(v, keys.Value.(ast.Set))
		if diff := cmp.Diff(want, got.String()); diff != "" {
			t.Errorf("truthy_keys(%s) (-plain +got):\n%s", s, diff)
		}
	})
}

func plainTruthyKeys(x ast.Value, keys ast.Set) string {
	want := map[string]bool{}
	keys.Foreach(func(t *ast.Term) { want[strings.ToLower(string(t.Value.(ast.String)))] = true })
	var out []*ast.Term
	var visit func(v ast.Value, ptr string)
	visit = func(v ast.Value, ptr string) {
		switch v := v.(type) {
		case ast.Object:
			v.Foreach(func(k, val *ast.Term) {
				ks, ok := k.Value.(ast.String)
				if !ok {
					return
				}
				p := ptr + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(string(ks))
				if want[strings.ToLower(string(ks))] && Truthy(val.Value) {
					out = append(out, ast.StringTerm(p))
				}
				visit(val.Value, p)
			})
		case *ast.Array:
			for i := 0; i < v.Len(); i++ {
				visit(v.Elem(i).Value, ptr+"/"+strconv.Itoa(i))
			}
		}
	}
	visit(x, "")
	return ast.ArrayTerm(out...).String()
}
