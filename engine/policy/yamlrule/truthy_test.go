package yamlrule

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/engine/policy/builtins"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// mayHoldKey only rules out a text when truthy_keys would find nothing in
// it, whatever it holds.
func TestMayHoldKeyNeverMissesAKey(t *testing.T) {
	keys := []string{"error", "timeout", "missing", "incomplete"}
	set := ast.NewSet()
	for _, k := range keys {
		set.Add(ast.StringTerm(k))
	}
	found := func(s string) bool {
		p, _ := builtins.JSONPayload(rego.BuiltinContext{}, ast.StringTerm(s))
		if p == nil {
			return false
		}
		out, _ := builtins.TruthyKeys(rego.BuiltinContext{}, p, ast.NewTerm(set))
		return out.Value.(*ast.Array).Len() > 0
	}
	fixed := []struct {
		s    string
		want bool
	}{
		{`{"ok": true}`, false},
		{`{"Error": 1}`, true},
		{`{"a": {"TIMEOUT": "x"}}`, true},
		{`{"\u0065rror": 1}`, true},      // an escape can write a key
		{`{"errör": 1}`, true},           // non-ASCII: left to the parser
		{`{"errors": 0, "x": 1}`, false}, // a key as a prefix of another is not the key
		{`{"x": "an error occurred", "missing_items": 0}`, false},
		{`{"x": "Error"}`, true}, // written between quotes: a value, but looked at
		{`{"": 1}`, false},
		{`[1, 2, "miss"]`, false},
	}
	for _, f := range fixed {
		if got := mayHoldKey(f.s, keys); got != f.want {
			t.Errorf("mayHoldKey(%s) = %v, want %v", f.s, got, f.want)
		}
	}
	// Random JSON-ish texts from pieces that come near the keys.
	pieces := []string{`{`, `}`, `[`, `]`, `"`, `:`, `,`, `1`, `true`, `null`, `"error"`, `"ERROR"`, `"timeou"`, `"t"`, `imeout"`, `\u0074`, `"missing"`, `é`, ` `, `"incomplete"`, `"x"`, `error`, `\"`, `\\`, `"errors"`, `Timeout`}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for n := rng.Intn(12); n >= 0; n-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		s := b.String()
		if !mayHoldKey(s, keys) && found(s) {
			t.Fatalf("mayHoldKey(%q) = false, but truthy_keys finds a key", s)
		}
	}
}
