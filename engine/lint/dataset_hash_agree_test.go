package lint

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// TestContentHashAgreesWithSortedForm: over records drawn from a few keys
// and values, so that many are the same example written otherwise (members
// in another order, another top-level id), two records hash alike exactly
// when they hash alike under the sorted canonical form the fold used before
// (refContentHash).
func TestContentHashAgreesWithSortedForm(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 36))
	var recs []ast.Object
	for range 600 {
		o := randomRecord(r)
		recs = append(recs, o, reordered(r, o, true))
	}
	refs, gots := make([]uint64, len(recs)), make([]uint64, len(recs))
	for i, o := range recs {
		refs[i], gots[i] = refContentHash(o), contentHash(o)
	}
	same, differ := 0, 0
	for i := range recs {
		for j := i + 1; j < len(recs); j++ {
			ref, got := refs[i] == refs[j], gots[i] == gots[j]
			if got != ref {
				t.Fatalf("%v and %v: hashes equal %v, the sorted form's %v", recs[i], recs[j], got, ref)
			}
			if ref {
				same++
			} else {
				differ++
			}
		}
	}
	if same < 600 || differ < 600 {
		t.Errorf("%d pairs the same example and %d not: the draw should give many of each", same, differ)
	}
}

// FuzzContentHashAgreesWithSortedForm: two JSON objects, as the decoder
// gives them, hash alike exactly when the sorted canonical form says they
// are the same example.
func FuzzContentHashAgreesWithSortedForm(f *testing.F) {
	f.Add(`{"a": 1, "b": [true, null]}`, `{"b": [true, null], "a": 1}`)
	f.Add(`{"id": "x", "m": "hi"}`, `{"m": "hi", "id": "y"}`)
	f.Add(`{"m": {"id": 1}}`, `{"m": {"id": 2}}`)
	f.Add(`{"a": [["x"], "y"]}`, `{"a": [["x", "y"]]}`)
	f.Add(`{"a": {"b": {}, "c": 1}}`, `{"a": {"b": {"c": 1}}}`)
	f.Add(`{"a": [1, 2]}`, `{"a": [2, 1]}`)
	f.Fuzz(func(t *testing.T, a, b string) {
		oa, ok := decodedObject(a)
		if !ok {
			return
		}
		ob, ok := decodedObject(b)
		if !ok {
			return
		}
		ref := refContentHash(oa) == refContentHash(ob)
		if got := contentHash(oa) == contentHash(ob); got != ref {
			t.Errorf("%s and %s: hashes equal %v, the sorted form's %v", a, b, got, ref)
		}
	})
}

// decodedObject decodes s as the fold reads a record, when it is a JSON
// object without repeated keys (whose members the two forms may take in
// another order).
func decodedObject(s string) (ast.Object, bool) {
	v, err := astjson.Decode([]byte(s))
	if err != nil {
		return nil, false
	}
	o, ok := v.(ast.Object)
	if !ok || repeatsKeys(o) {
		return nil, false
	}
	return o, true
}

func repeatsKeys(v ast.Value) bool {
	switch v := v.(type) {
	case ast.Object:
		seen := map[string]bool{}
		bad := false
		each := func(k, t *ast.Term) {
			s := k.String()
			bad = bad || seen[s] || repeatsKeys(t.Value)
			seen[s] = true
		}
		if ov, ok := v.(*astjson.ObjectView); ok {
			ov.ForeachMember(each)
		} else {
			v.Foreach(each)
		}
		return bad
	case *ast.Array:
		for i := range v.Len() {
			if repeatsKeys(v.Elem(i).Value) {
				return true
			}
		}
	}
	return false
}

var hashKeys = []string{"id", "a", "b", "c"}

func randomRecord(r *rand.Rand) ast.Object {
	o, _ := randomValue(r, 0, true).(ast.Object)
	return o
}

// randomValue draws a value from few keys and scalars; an object at the
// top.
func randomValue(r *rand.Rand, depth int, object bool) ast.Value {
	k := r.IntN(9)
	if object {
		k = 8
	}
	if depth >= 3 && k >= 7 {
		k = r.IntN(7)
	}
	switch k {
	case 0:
		return ast.String([]string{"", "x", "y", "1"}[r.IntN(4)])
	case 1:
		return ast.Number([]string{"1", "1.0", "2"}[r.IntN(3)])
	case 2:
		return ast.Boolean(r.IntN(2) == 0)
	case 3:
		return ast.Null{}
	case 4, 5, 6:
		return ast.String(strings.Repeat("x", r.IntN(2)) + strconv.Itoa(r.IntN(2)))
	case 7:
		n := r.IntN(3)
		ts := make([]*ast.Term, n)
		for i := range ts {
			ts[i] = ast.NewTerm(randomValue(r, depth+1, false))
		}
		return ast.NewArray(ts...)
	}
	var items [][2]*ast.Term
	for _, key := range hashKeys {
		if r.IntN(2) == 0 {
			items = append(items, ast.Item(ast.StringTerm(key), ast.NewTerm(randomValue(r, depth+1, false))))
		}
	}
	return ast.NewObject(items...)
}

// reordered is o with its members, and those of every object in it, in
// another order, and at the top maybe another id; as an object view when
// r says so.
func reordered(r *rand.Rand, o ast.Object, top bool) ast.Object {
	var items [][2]*ast.Term
	o.Foreach(func(k, v *ast.Term) {
		val := v.Value
		switch x := val.(type) {
		case ast.Object:
			val = reordered(r, x, false)
		case *ast.Array:
			ts := make([]*ast.Term, x.Len())
			for i := range ts {
				ts[i] = x.Elem(i)
				if eo, ok := ts[i].Value.(ast.Object); ok {
					ts[i] = ast.NewTerm(reordered(r, eo, false))
				}
			}
			val = ast.NewArray(ts...)
		}
		if top && k.Value.Compare(ast.String("id")) == 0 && r.IntN(2) == 0 {
			val = ast.String("other")
		}
		items = append(items, ast.Item(k, ast.NewTerm(val)))
	})
	r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	if r.IntN(2) == 0 {
		return astjson.NewObjectView(items...)
	}
	return ast.NewObject(items...)
}
