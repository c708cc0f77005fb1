package astjson

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestStringTermsAreStrings: a string term carved with its header
// (strterm.go) is an ast.String to every reader: a type assertion and
// switch, == on the interface, a map key, Compare, Equal, Hash, String and
// JSON; and it stays so after the collector ran, when only the term is
// held.
func TestStringTermsAreStrings(t *testing.T) {
	long := strings.Repeat("a string too long to intern ", 3)
	var kept []*ast.Term
	for i := range 200 {
		var s slabs
		s.str([]byte("a string the collector may not keep"))
		kept = append(kept, s.str([]byte(long+string(rune('a'+i%26)))))
	}
	runtime.GC()
	runtime.GC()
	for i, term := range kept {
		want := long + string(rune('a'+i%26))
		got, ok := term.Value.(ast.String)
		if !ok || string(got) != want {
			t.Fatalf("term %d: %T %q, want ast.String %q", i, term.Value, got, want)
		}
		switch v := term.Value.(type) {
		case ast.String:
			if string(v) != want {
				t.Errorf("term %d: switch gives %q", i, v)
			}
		default:
			t.Errorf("term %d: switch gives %T", i, v)
		}
		plain := ast.StringTerm(want)
		if term.Value != plain.Value || !term.Equal(plain) || ast.Compare(term, plain) != 0 || term.Hash() != plain.Hash() {
			t.Errorf("term %d: not equal to %v", i, plain)
		}
		if m := map[ast.Value]int{plain.Value: 1}; m[term.Value] != 1 {
			t.Errorf("term %d: not found as a map key", i)
		}
		b, err := json.Marshal(term)
		if wb, _ := json.Marshal(plain); err != nil || string(b) != string(wb) || term.String() != plain.String() {
			t.Errorf("term %d: JSON %s (%v), String %s; want %s, %s", i, b, err, term, wb, plain)
		}
	}
}
