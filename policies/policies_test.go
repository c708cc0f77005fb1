package policies_test

import (
	"context"
	"testing"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/policy"
)

// TestRegoUnitTests runs the *_test.rego files of every built-in pack.
func TestRegoUnitTests(t *testing.T) {
	packs, err := builtin.Packs()
	if err != nil {
		t.Fatal(err)
	}
	results, err := policy.RunRegoTests(context.Background(), packs)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) == 0 {
		t.Fatal("the built-in packs have no Rego unit tests")
	}
	for _, r := range results {
		if r.Fail || r.Err != nil {
			t.Errorf("%s: %s failed: %v", r.Location, r.Name, r.Err)
		}
	}
}

// TestBuiltinPacksCompile makes sure the embedded packs compile together.
func TestBuiltinPacksCompile(t *testing.T) {
	packs, err := builtin.Packs()
	if err != nil {
		t.Fatal(err)
	}
	e, err := policy.Compile(context.Background(), packs, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Rules()) == 0 {
		t.Fatal("no built-in rules")
	}
}
