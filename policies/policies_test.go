package policies_test

import (
	"context"
	"regexp"
	"testing"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/policy"
)

// TestRegoUnitTests runs the *_test.rego files of every built-in pack.
func TestRegoUnitTests(t *testing.T) {
	packs, err := builtin.All()
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

// TestBuiltinPacksCompile makes sure the embedded check packs compile
// together, as check loads them, and each cleanup pack on its own, as fix
// loads them (a cleanup rule may share the id of the check it fixes).
func TestBuiltinPacksCompile(t *testing.T) {
	packs, err := builtin.All()
	if err != nil {
		t.Fatal(err)
	}
	var checks, cleanup []*policy.Pack
	cleanups := 0
	for _, p := range packs {
		if p.Kind != policy.KindCleanup {
			checks = append(checks, p)
			continue
		}
		cleanups++
		cleanup = append(cleanup, p)
		if _, err := policy.Compile(context.Background(), []*policy.Pack{p}, policy.Options{}); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
	}
	// fix --pack builtin:openai-tools --pack builtin:transcript runs both.
	if _, err := policy.Compile(context.Background(), cleanup, policy.Options{}); err != nil {
		t.Errorf("the cleanup packs together: %v", err)
	}
	e, err := policy.Compile(context.Background(), checks, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Rules()) == 0 || cleanups == 0 {
		t.Fatalf("%d check rules, %d cleanup packs", len(e.Rules()), cleanups)
	}
}

// TestCleanupRulesAreDeclared: every rule id a built-in cleanup pack puts
// in an action is declared in METADATA, so rules lists it.
func TestCleanupRulesAreDeclared(t *testing.T) {
	packs, err := builtin.Cleanup()
	if err != nil {
		t.Fatal(err)
	}
	used := regexp.MustCompile(`"rule": "([a-z-]+)"`)
	for _, p := range packs {
		e, err := policy.Compile(context.Background(), []*policy.Pack{p}, policy.Options{})
		if err != nil {
			t.Fatal(err)
		}
		declared := map[string]bool{}
		for _, r := range e.Rules() {
			declared[r.ID] = true
		}
		for _, f := range p.Rego {
			for _, m := range used.FindAllStringSubmatch(string(f.Source), -1) {
				if !declared[m[1]] {
					t.Errorf("%s: rule %s is used in an action but not declared", f.Name, m[1])
				}
			}
		}
	}
}
