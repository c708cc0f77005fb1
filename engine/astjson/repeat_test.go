package astjson

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestRepeatedMembers checks that a large member repeated across records is
// shared once it has been seen twice, and that a value differing after the
// hashed prefix, or only in length, is never taken for it.
func TestRepeatedMembers(t *testing.T) {
	// The repeat cache lives as long as the process and tells values apart
	// by their first bytes and length: a name of its own, early in the
	// value, makes this run's values new to it under -count=N too.
	tools := `[{"type":"function","function":{"name":"get_weather` + fmt.Sprint(rand.Uint32()) + `","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}},` +
		`{"type":"function","function":{"name":"search_docs","description":"` + strings.Repeat("x", 200) + `"}}]`
	variant := strings.Replace(tools, "search_docs", "search_dogs", 1)
	longer := strings.TrimSuffix(tools, "]") + `,1]`
	rec := func(i int, tools string) string {
		return fmt.Sprintf(`{"messages":[{"role":"user","content":"q%d"}],"tools":%s}`, i, tools)
	}
	toolsOf := func(s string) *ast.Term {
		t.Helper()
		v, err := Decode([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := ast.ValueFromReader(strings.NewReader(s))
		if ast.Compare(v, ref) != 0 {
			t.Fatalf("decode of %s differs from the reference", s)
		}
		return v.(ast.Object).Get(ast.StringTerm("tools"))
	}
	first := toolsOf(rec(1, tools))
	second := toolsOf(rec(2, tools))
	third := toolsOf(rec(3, tools))
	if second != third {
		t.Errorf("a tools array seen twice is not shared by the next record")
	}
	if first == third {
		t.Errorf("a value seen once was already shared")
	}
	for _, other := range []string{variant, longer} {
		got := toolsOf(rec(4, other))
		if got == third {
			t.Fatalf("a different tools array was taken for the cached one")
		}
		want, _ := ast.ValueFromReader(strings.NewReader(other))
		if ast.Compare(got.Value, want) != 0 {
			t.Fatalf("variant decoded wrong")
		}
	}
}
