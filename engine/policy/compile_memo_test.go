package policy

import (
	"context"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/policy/regoc"
	"github.com/chatlint/chatlint/engine/rule"
)

// forgetCompiled empties the memo, for tests that compile the same packs
// again to see the compile itself.
func forgetCompiled() {
	memo.Lock()
	defer memo.Unlock()
	memo.keys, memo.parts = nil, nil
}

// Compiling the same packs again reuses their compiled parts, and each
// engine still applies its own options: one engine's disabled rules are
// not the other's, and their Rego rule tables are apart.
func TestCompileReusesParts(t *testing.T) {
	forgetCompiled()
	packs := fieldPackSets(t)["built-in check packs"]
	ctx := context.Background()
	all, err := Compile(ctx, packs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var rego rule.Rule
	for _, r := range all.Rules() {
		if all.rego != nil && all.rego.rules[r.ID].ID != "" {
			rego = r
			break
		}
	}
	if rego.ID == "" {
		t.Fatal("the built-in check packs declare no Rego rule")
	}
	fewer, err := Compile(ctx, packs, Options{Disable: []string{rego.ID}})
	if err != nil {
		t.Fatal(err)
	}
	memo.Lock()
	held := len(memo.parts)
	memo.Unlock()
	if held != 1 {
		t.Errorf("memo holds %d pack sets after compiling one twice, want 1", held)
	}
	if all.rego == fewer.rego {
		t.Error("two engines share one Rego program: the rule table would be shared too")
	}
	if all.rego.compiler != fewer.rego.compiler {
		t.Error("the second compile did not reuse the first's compiled Rego")
	}
	ids := func(e *Engine) map[string]bool {
		m := map[string]bool{}
		for _, r := range e.Rules() {
			m[r.ID] = true
		}
		return m
	}
	want := ids(all)
	delete(want, rego.ID)
	if diff := cmp.Diff(want, ids(fewer)); diff != "" {
		t.Errorf("the engine with %s disabled (-want +got):\n%s", rego.ID, diff)
	}
	if !ids(all)[rego.ID] {
		t.Errorf("disabling %s in one engine disabled it in the other", rego.ID)
	}
}

// Packs that differ in one byte are compiled apart, and the memo holds at
// most memoSize pack sets.
func TestCompileMemoByContent(t *testing.T) {
	forgetCompiled()
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range memoSize + 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src := "rules:\n  - id: r\n    severity: error\n    description: d" + string(rune('a'+i)) + "\n    assert: {raw: present}\n"
			e, err := Compile(ctx, []*Pack{{Name: "p", YAML: []File{{Name: "p/r.yaml", Source: []byte(src)}}}}, Options{})
			if err != nil {
				t.Error(err)
				return
			}
			if got, want := e.Rules()[0].Description, "d"+string(rune('a'+i)); got != want {
				t.Errorf("pack %d: description %q, want %q", i, got, want)
			}
		}()
	}
	wg.Wait()
	memo.Lock()
	defer memo.Unlock()
	if len(memo.parts) != memoSize || len(memo.keys) != memoSize {
		t.Errorf("memo holds %d pack sets (%d keys), want %d", len(memo.parts), len(memo.keys), memoSize)
	}
}

// The memo's key changes with every field of a pack, and only with them:
// packs that differ anywhere are compiled apart.
func TestPacksKeyEveryField(t *testing.T) {
	full := func() *Pack {
		return &Pack{
			Name: "p", Description: "d", Kind: "k",
			Rego:         []File{{Name: "a.rego", Source: []byte("package chatlint.p")}},
			Tests:        []File{{Name: "a_test.rego", Source: []byte("t")}},
			YAML:         []File{{Name: "r.yaml", Source: []byte("rules: []")}},
			Profiles:     []Profile{{Name: "x", Description: "y", Provider: true, Checks: []string{"c"}}},
			Models:       []Model{{Name: "m", Encoding: "e", Limit: 1, PricePerMillion: 2}},
			DefaultModel: "m",
		}
	}
	base, ok := packsKey([]*Pack{full()})
	if !ok {
		t.Fatal("no key for a pack")
	}
	if again, _ := packsKey([]*Pack{full()}); again != base {
		t.Error("the same pack twice: two keys")
	}
	changes := map[string]func(p *Pack) []*Pack{
		"name":          func(p *Pack) []*Pack { p.Name = "q"; return []*Pack{p} },
		"description":   func(p *Pack) []*Pack { p.Description = ""; return []*Pack{p} },
		"kind":          func(p *Pack) []*Pack { p.Kind = "cleanup"; return []*Pack{p} },
		"a Rego file":   func(p *Pack) []*Pack { p.Rego[0].Source[0] = 'P'; return []*Pack{p} },
		"a file's name": func(p *Pack) []*Pack { p.Rego[0].Name = "b.rego"; return []*Pack{p} },
		"no Rego":       func(p *Pack) []*Pack { p.Rego = nil; return []*Pack{p} },
		"a test":        func(p *Pack) []*Pack { p.Tests = nil; return []*Pack{p} },
		"a YAML file":   func(p *Pack) []*Pack { p.YAML[0].Source = []byte("rules: [ ]"); return []*Pack{p} },
		"name into text": func(p *Pack) []*Pack {
			p.YAML[0] = File{Name: "r.yamlr", Source: []byte("ules: []")}
			return []*Pack{p}
		},
		"a provider":      func(p *Pack) []*Pack { p.Profiles[0].Provider = false; return []*Pack{p} },
		"a check":         func(p *Pack) []*Pack { p.Profiles[0].Checks = nil; return []*Pack{p} },
		"a limit":         func(p *Pack) []*Pack { p.Models[0].Limit = 2; return []*Pack{p} },
		"a price":         func(p *Pack) []*Pack { p.Models[0].PricePerMillion = 2.5; return []*Pack{p} },
		"the default":     func(p *Pack) []*Pack { p.DefaultModel = ""; return []*Pack{p} },
		"one more pack":   func(p *Pack) []*Pack { return []*Pack{p, {Name: "e"}} },
		"a pack fewer":    func(p *Pack) []*Pack { return nil },
		"the Rego engine": func(p *Pack) []*Pack { t.Setenv(regoc.EnvVar, "topdown"); return []*Pack{p} },
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			got, ok := packsKey(change(full()))
			if !ok || got == base {
				t.Errorf("key %v (ok %v), the same as the unchanged pack's", got, ok)
			}
		})
	}
}
