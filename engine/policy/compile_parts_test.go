package policy

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/policy/yamlrule"
	"github.com/chatlint/chatlint/engine/rule"
	"github.com/chatlint/chatlint/policies"
	"github.com/chatlint/chatlint/rules"
)

// brokenPacks fail to compile in every way Compile reports, across packs:
// Rego that does not parse (a pack whose Rego fails is not read further),
// YAML that does not parse (its rules and its rego_when entries each say so),
// bad rules and entries, rules declared twice.
func brokenPacks() []*Pack {
	rego := func(name, src string) File { return File{Name: name, Source: []byte(src)} }
	return []*Pack{
		{Name: "a", Rego: []File{
			rego("a/one.rego", "package chatlint.a\n\ndeny contains f if {\n\tf := \n}\n"),
			rego("a/two.rego", "package chatlint.a\n\nwarn contains f if {\n\tf := [\n}\n"),
			rego("a/three.rego", "package other\n\ninfo contains 1 if true\n"),
		}, YAML: []File{rego("a/never.yaml", "rules: [")}},
		{Name: "b", YAML: []File{
			rego("b/bad.yaml", "rules: [\n"),
			rego("b/sev.yaml", "rules:\n  - id: b1\n    severity: fatal\n    description: d\n    assert: {raw: present}\n  - id: b2\n    description: d\n    severity: error\n    assert: {raw: {bigger: 1}}\n"),
			rego("b/gate.yaml", "rego_when:\n  - id: g\n    assert: {raw: present}\n"),
			rego("b/type.yaml", "rules: 5\nrego_when: 6\n"),
		}},
		{Name: "c", Rego: []File{
			rego("c/c.rego", "package chatlint.c\n\n# METADATA\n# custom:\n#   id: dup\n#   severity: error\n# description: d\ndeny contains {\"rule\": \"dup\", \"message\": \"m\"} if false\n"),
		}, YAML: []File{
			rego("c/dup.yaml", "rules:\n  - id: dup\n    severity: error\n    description: d\n    assert: {raw: present}\n"),
		}},
		{Name: "d", Rego: []File{
			rego("d/meta.rego", "package chatlint.d\n\n# METADATA\n# description: x\ndeny contains 1 if true\n"),
		}},
	}
}

// brokenPacksErrors are brokenPacks' errors as Compile reported them when
// it compiled the packs one by one, on one goroutine.
var brokenPacksErrors = []string{
	"a/one.rego:5:1: rego_parse_error: unexpected } token",
	"a/two.rego:5:1: rego_parse_error: unexpected } token",
	"a/three.rego:1:1: package must be chatlint.<pack>…, not other",
	"b/bad.yaml: yaml: line 1: did not find expected node content",
	`b/sev.yaml:2:5: rule b1: unknown severity "fatal" (want error, warning or info)`,
	"b/sev.yaml:6:5: rule b2: assert: line 9: raw: bigger: unknown operator (want present, optional, type, equals, not_equals, in, subset_of, not_empty, truthy, prefix, suffix, contains, matches, json, json_schema, datetime, less_than, at_most, greater_than, at_least, same_as or not)",
	"b/type.yaml: yaml: unmarshal errors:\n  line 1: cannot unmarshal !!int `5` into []yaml.Node",
	"b/bad.yaml: yaml: line 1: did not find expected node content",
	"b/gate.yaml:2:5: rego_when: an entry has no id: it only says when the pack's Rego runs",
	"b/type.yaml: yaml: unmarshal errors:\n  line 2: cannot unmarshal !!int `6` into []yaml.Node",
	"d/meta.rego:3:1: METADATA on deny needs custom.id",
	"c/dup.yaml:2: rule id dup is already declared at c/c.rego:3",
}

// TestCompileErrorsStable compiles broken packs many times: Compile works on
// several goroutines (compile_parts.go), and must still report every error
// in the packs' order, the same every time.
func TestCompileErrorsStable(t *testing.T) {
	cases := []struct {
		name  string
		packs func() []*Pack
		want  []string
	}{
		{"broken packs", brokenPacks, brokenPacksErrors},
		// With the Rego of every pack parsed, OPA's errors come after none
		// other: they are reported only when nothing else fails.
		{"OPA errors alone", func() []*Pack {
			return []*Pack{
				{Name: "x", Rego: []File{{Name: "x/x.rego", Source: []byte("package chatlint.x\n\ndeny contains f if {\n\tf := nope(1)\n}\n\nwarn contains f if {\n\tf := nada(2)\n}\n")}}},
				{Name: "y", Rego: []File{{Name: "y/y.rego", Source: []byte("package chatlint.y\n\ninfo contains f if {\n\tf := zilch(3)\n}\n")}}},
			}
		}, []string{
			"x/x.rego:4:7: rego_type_error: undefined function nope",
			"x/x.rego:8:7: rego_type_error: undefined function nada",
			"y/y.rego:4:7: rego_type_error: undefined function zilch",
		}},
		{"OPA errors behind YAML errors", func() []*Pack {
			return []*Pack{
				{Name: "x", Rego: []File{{Name: "x/x.rego", Source: []byte("package chatlint.x\n\ndeny contains f if {\n\tf := nope(1)\n}\n")}}},
				{Name: "y", YAML: []File{{Name: "y/y.yaml", Source: []byte("rules:\n  - id: y\n")}}},
			}
		}, []string{`y/y.yaml:2:5: rule y: unknown severity "" (want error, warning or info)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var first []string
			for i := range 30 {
				forgetCompiled()
				_, err := Compile(context.Background(), c.packs(), Options{})
				var ce *CompileError
				if !errors.As(err, &ce) {
					t.Fatalf("want a *CompileError, got %v", err)
				}
				if i == 0 {
					first = ce.Errors
					if diff := cmp.Diff(c.want, first); diff != "" {
						t.Fatalf("errors (-want +got):\n%s", diff)
					}
					continue
				}
				if diff := cmp.Diff(first, ce.Errors); diff != "" {
					t.Fatalf("run %d: errors differ from the first run's (-first +this):\n%s", i, diff)
				}
			}
		})
	}
}

// fieldPackSets are the pack sets TestFieldReadsMatchSerial compares the
// field analysis over: every built-in pack, the built-in check packs, each
// built-in pack alone, the team packs of the fixtures and the bench packs.
func fieldPackSets(t *testing.T) map[string][]*Pack {
	all, err := LoadBuiltin(BuiltinSource{FS: policies.FS, Prefix: "builtin:policies"}, BuiltinSource{FS: rules.FS, Prefix: "builtin:rules"})
	if err != nil {
		t.Fatal(err)
	}
	sets := map[string][]*Pack{"every built-in pack": all}
	for _, p := range all {
		sets["builtin:"+p.Name] = []*Pack{p}
		if p.Kind != KindCleanup {
			sets["built-in check packs"] = append(sets["built-in check packs"], p)
		}
	}
	dirs, _ := filepath.Glob("../../fixtures/packs/*")
	dirs = append(dirs, "../../scripts/bench-pack", "../../scripts/bench-floor")
	for _, d := range dirs {
		p, err := LoadFS(os.DirFS(d), ".", d)
		if err != nil {
			t.Fatal(err)
		}
		sets[d] = []*Pack{p}
	}
	return sets
}

// TestFieldReadsMatchSerial holds the field analysis Compile now does in
// parts (the Rego's on one goroutine, the YAML's on another, merged; the
// YAML scanned rather than matched) to the one it did on one tree: the
// compiled modules' paths first, then each YAML file's reads by the regular
// expressions.
func TestFieldReadsMatchSerial(t *testing.T) {
	for name, packs := range fieldPackSets(t) {
		parts := compileParts(context.Background(), packs, false)
		if parts.progErr != nil {
			t.Fatalf("%s: %v", name, parts.progErr)
		}
		got := fieldReads(&parts.regoReads, parts.yamlReads, parts.gateReads)
		want := &fieldSet{names: nameSet{}}
		if parts.prog != nil {
			var mods []*ast.Module
			for _, m := range parts.prog.modules {
				mods = append(mods, m)
			}
			regoPathsAll(mods, &want.tree)
		}
		for _, p := range packs {
			for _, f := range p.YAML {
				want.yamlReference(f.Source)
			}
		}
		if diff := cmp.Diff(want, got, fieldSetCmp); diff != "" {
			t.Errorf("%s: field reads (-serial +parts):\n%s", name, diff)
		}
	}
}

// TestCompileStable compiles the built-in packs many times: the rules, what
// they read and the Rego program's sets are the same every time.
func TestCompileStable(t *testing.T) {
	packs := fieldPackSets(t)["built-in check packs"]
	type view struct {
		Rules                            []rule.Rule
		Probes                           []string
		YAML, ToolYAML, Actions, Dataset []string
		Gate, Sets, DatasetSets          []string
		Lookup, Relational, RoleFiltered bool
	}
	ids := func(rs []*yamlrule.Rule) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}
	sets := func(ss []regoSet) []string {
		var out []string
		for _, s := range ss {
			out = append(out, fmt.Sprint(s.pkg, s.name))
		}
		return out
	}
	var first view
	for i := range 10 {
		forgetCompiled()
		e, err := Compile(context.Background(), packs, Options{})
		if err != nil {
			t.Fatal(err)
		}
		parts := compileParts(context.Background(), packs, false)
		v := view{
			Rules: e.Rules(), Probes: readProbes(fieldReads(&parts.regoReads, parts.yamlReads)),
			YAML: ids(e.yaml), ToolYAML: ids(e.toolYAML), Actions: ids(e.actions), Dataset: ids(e.dataset), Gate: ids(e.gate.entries()),
			Sets: sets(e.rego.sets), DatasetSets: sets(e.rego.datasetSets),
			Lookup: e.readsLookup, Relational: e.relational, RoleFiltered: e.roleFiltered,
		}
		if i == 0 {
			first = v
			continue
		}
		if diff := cmp.Diff(first, v); diff != "" {
			t.Fatalf("compile %d differs from the first (-first +this):\n%s", i, diff)
		}
	}
}

// TestReadTreeMerge: merging two trees is making both trees' adds on one,
// whatever their order.
func TestReadTreeMerge(t *testing.T) {
	type add struct {
		path []string
		full bool
	}
	p := func(s ...string) []string { return s }
	cases := [][2][]add{
		{{{p("messages", "*", "role"), false}}, {{p("tools"), false}}},
		{{{p("messages", "*", "role"), false}, {p("messages"), true}}, {{p("messages", "*", "text"), false}}},
		{{{p("messages"), false}}, {{p("messages", "*"), true}, {p("id"), false}}},
		{{{nil, true}}, {{p("messages"), false}}},
		{{{p("a", "b"), true}, {p("a", "c", "d"), false}}, {{p("a"), false}, {p("a", "b", "x"), false}, {p("e"), false}}},
	}
	for i, c := range cases {
		var want, a, b readTree
		for _, x := range append(append([]add(nil), c[0]...), c[1]...) {
			want.add(x.path, x.full)
		}
		for _, x := range c[0] {
			a.add(x.path, x.full)
		}
		for _, x := range c[1] {
			b.add(x.path, x.full)
		}
		var got readTree
		got.merge(nil, &a)
		got.merge(nil, &b)
		if diff := cmp.Diff(want, got, fieldSetCmp); diff != "" {
			t.Errorf("case %d: merged (-one tree +merged):\n%s", i, diff)
		}
	}
}
