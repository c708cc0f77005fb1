package policy_test

import (
	"context"
	"testing"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/policy"
)

// builtinEngine is the engine of the built-in packs, as `check` compiles it.
func builtinEngine(t testing.TB) *policy.Engine {
	t.Helper()
	packs, err := builtin.Packs()
	if err != nil {
		t.Fatal(err)
	}
	eng, err := policy.Compile(context.Background(), packs, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}
