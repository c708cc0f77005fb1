package astjson

import (
	"strconv"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestKeyIsTheDecodedKey: the term Key returns is the one the decoder
// gives the member name from its first sighting on (no second sighting is
// needed, as for other strings), and it keeps it when another string that
// falls in the same slot of the cache is decoded again and again; a view's
// Get finds it by pointer, and a key built elsewhere by its string.
func TestKeyIsTheDecodedKey(t *testing.T) {
	const name = "key_test_member"
	k := Key(name)
	if Key(name) != k {
		t.Fatal("Key gives the name another term the second time")
	}
	rival := collidingString(t, name)
	in := `{"messages":[{"` + name + `":"a value longer than thirty-two bytes, not shared","` + rival + `":1}]}`
	for i := range 4 {
		v, err := DecodeProjected([]byte(in), messageViews)
		if err != nil {
			t.Fatal(err)
		}
		view := v.(ast.Object).Get(ast.StringTerm("messages")).Value.(*ast.Array).Elem(0).Value.(*ObjectView)
		if got := view.kvs[0][0]; got != k {
			t.Fatalf("decode %d: the member's key is %p, not Key's %p", i, got, k)
		}
		if view.Get(k) != view.kvs[0][1] || view.Get(ast.StringTerm(name)) != view.kvs[0][1] {
			t.Fatalf("decode %d: Get does not find the member", i)
		}
		if view.Get(ast.StringTerm(rival)) != view.kvs[1][1] {
			t.Fatalf("decode %d: Get does not find the other member", i)
		}
	}
	if first, second := Key(rival), Key(rival); first == second {
		t.Error("a name whose slot holds another pinned name got a shared term")
	}
	if Key(name) != k {
		t.Error("the pinned name lost its slot")
	}
}

// collidingString returns a key-like string other than s that falls in
// s's slot of the intern cache.
func collidingString(t *testing.T, s string) string {
	t.Helper()
	want := hashKey(padded(s)) & (internSize - 1)
	for i := range 1 << 24 {
		c := "k" + strconv.Itoa(i)
		if hashKey(padded(c))&(internSize-1) == want {
			return c
		}
	}
	t.Fatal("no colliding string found")
	return ""
}

// padded is s as hashKey is given it by Key: with room past its end.
func padded(s string) []byte {
	b := make([]byte, maxInternLen)
	return b[:copy(b, s)]
}
