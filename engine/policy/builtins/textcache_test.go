package builtins

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
)

// The cache gives what a fresh parse gives, for valid and invalid text,
// for texts that share slots, for text too long to keep, and under
// concurrent use.
func TestTextCacheMatchesParse(t *testing.T) {
	texts := []string{`{"a": 1}`, `{not json`, `"{\"a\": 1}"`, `[1, 2]`, `null`, ``, `  `, `{"a":1} x`,
		`{"long": "` + strings.Repeat("x", textCacheMax) + `"}`}
	for i := range 3 * textCacheSlots { // more texts than slots: collisions replace entries
		texts = append(texts, fmt.Sprintf(`{"n": %d}`, i))
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 3 {
				for k := range texts {
					s := texts[(k+w+round)%len(texts)]
					got, ok := JSONText(ast.String(s))
					want, wantOK := decodeText(s)
					if ok != wantOK || ok && document.Plain(got).Compare(document.Plain(want)) != 0 { // a view or, all members shared, an OPA object
						t.Errorf("%.40q: got %v %v, want %v %v", s, got, ok, want, wantOK)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

// A text read again comes from the cache: the same value, not a new parse.
func TestTextCacheKeepsRecentParses(t *testing.T) {
	s := ast.String(`{"city": "Paris", "unit": "c"}`)
	a, _ := JSONText(s)
	b, _ := JSONText(ast.String(string([]byte(s)))) // equal content, another string
	if a.(ast.Object) == nil || fmt.Sprintf("%p", a) != fmt.Sprintf("%p", b) {
		t.Errorf("second read parsed again: %p, %p", a, b)
	}
}

// An object's text is parsed to an astjson.ObjectView, whose members are the
// values Decode builds (nested objects as OPA objects, not views), so the
// json tests and the quick schema check read it without an OPA object
// being built, and document.Plain gives exactly Decode's value. (An object
// whose members are all shared terms is the decoder's shared object: each
// text here has a string too long to be shared.)
func TestJSONTextObjectIsView(t *testing.T) {
	for _, s := range []string{
		`{"city": "Paris, Ile-de-France, France", "days": 3}`,
		`{"filter": {"tags": ["a", "b"], "n": null}, "items": [{"k": 1}], "q": "a query longer than sixteen bytes"}`,
		`{"a": 1, "a": "a value longer than sixteen bytes"}`,
	} {
		got, ok := decodeText(s)
		if !ok {
			t.Fatalf("%s: not JSON", s)
		}
		view, isView := got.(*astjson.ObjectView)
		if !isView {
			t.Fatalf("%s: got %T, want *astjson.ObjectView", s, got)
		}
		view.Foreach(func(_, v *ast.Term) {
			if _, nested := v.Value.(*astjson.ObjectView); nested {
				t.Errorf("%s: member %v is a view", s, v)
			}
		})
		want, err := astjson.Decode([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		if plain := document.Plain(got); plain.Compare(want) != 0 || plain.Hash() != want.Hash() {
			t.Errorf("%s: plain %v, want %v", s, plain, want)
		}
	}
	for _, s := range []string{`[{"a": 1}]`, `"{}"`, `12`} { // only an object is a view
		if got, _ := decodeText(s); fmt.Sprintf("%T", got) == "*astjson.ObjectView" {
			t.Errorf("%s: got a view", s)
		}
	}
}
