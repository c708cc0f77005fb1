package policy_test

import (
	"bufio"
	"bytes"
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/internal/sweep"
)

// TestRegoDirectMatchesGather evaluates Rego packs over documents by the
// sets' own topdown queries and by the former gather module
// (rego_oracle_export_test.go), and wants the same hits, actions and errors
// — in the same order — from both, traced or not, for the record sets and
// the dataset sets. The packs: every built-in pack (checks and cleanup),
// the team packs under fixtures/packs, and every Rego module written whole
// as a string in a test of this repository (the CLI's and the engine's
// packs, malformed findings included). The documents: the fixture records
// under policies/, rules/ and fixtures/, and those of ../shared/data (for
// the built-in packs) when it is there — the first 200 of a file of
// records, all of them in its dataset document — under every profile the
// packs declare.
func TestRegoDirectMatchesGather(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	units := fixtureUnits(t, root)
	if len(units) < 100 {
		t.Fatalf("found %d fixture files, want the repository's", len(units))
	}
	all, err := builtin.All()
	if err != nil {
		t.Fatal(err)
	}
	sets := []packSet{{"builtin", all}}
	for _, dir := range []string{"fixtures/packs/team", "fixtures/packs/regal-layout"} {
		p, err := policy.LoadFS(os.DirFS(filepath.Join(root, dir)), ".", dir)
		if err != nil {
			t.Fatal(err)
		}
		p.Name = filepath.Base(dir)
		sets = append(sets, packSet{dir, []*policy.Pack{p}})
	}
	sets = append(sets, packSet{"oracle", oraclePacks()})
	inline := inlineModules(t, root)
	if len(inline) < 20 {
		t.Fatalf("found %d Rego modules in tests, want the repository's", len(inline))
	}
	// The default run takes a sample of the modules tests write; the
	// `exhaustive` build tag takes them all.
	sets = append(sets, sweep.Pick(inline, 8, func(ps packSet) string { return ps.name })...)

	ctx := context.Background()
	compared, withHits, withErr, packsRun := 0, 0, 0, 0
	for _, ps := range sets {
		e, err := policy.Compile(ctx, ps.packs, policy.Options{})
		if err != nil {
			continue // a module a test writes to see it fail
		}
		o, err := policy.NewRegoOracle(ctx, e, ps.packs)
		if err != nil {
			t.Fatalf("%s: oracle: %v", ps.name, err)
		}
		if o == nil {
			continue
		}
		packsRun++
		profiles := []string{""}
		for _, p := range e.Profiles() {
			profiles = append(profiles, p.Name)
		}
		l := lint.New(e, document.Options{})
		// The default run compares no profile and one other; the
		// `exhaustive` build tag compares every profile.
		if len(profiles) > 2 {
			profiles = append(profiles[:1], sweep.Strings(profiles[1:], 1)...)
		}
		for _, profile := range profiles {
			for _, u := range units {
				if ps.name != "builtin" && u.shared {
					continue // the shared data is for the built-in packs
				}
				var ds *lint.Dataset
				opts := document.Options{Profile: profile}
				if l.Folds() {
					ds = lint.NewDataset(u.File, u.Format, opts)
					_, facts := lint.New(e, opts).CheckFacts(ctx, u.Unit)
					for _, f := range facts {
						ds.Add(f)
					}
				}
				few := u.Unit
				if len(few.Records) > 200 && !u.Format.PerFile() {
					few.Records = few.Records[:200] // the rest count for the dataset document only
				}
				lint.Documents(few, opts, func(d *document.Document, _ *jsonl.Record) {
					want := o.Old(ctx, d)
					got := o.New(ctx, d, false)
					traced := o.New(ctx, d, true)
					where := ps.name + " " + d.File + ":" + strconv.Itoa(d.Line) + " profile " + profile
					if want.Err != "" && got.Err == "" && len(got.Hits)+len(got.Actions) == 0 && o.Scoped(d) {
						want = got // the gather module ran a pack that does not apply, and it erred
					}
					if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
						t.Errorf("%s: direct evaluation differs from the gather module (-gather +direct):\n%s", where, diff)
					}
					if diff := cmp.Diff(got, traced, cmpopts.EquateEmpty()); diff != "" {
						t.Errorf("%s: traced evaluation differs (-untraced +traced):\n%s", where, diff)
					}
					compared++
					if len(want.Hits)+len(want.Actions) > 0 {
						withHits++
					}
					if want.Err != "" {
						withErr++
					}
				})
				if ds != nil && ds.Records() > 0 {
					doc := ds.Document()
					want := o.OldDataset(ctx, string(u.Format), profile, doc)
					got := o.NewDataset(ctx, string(u.Format), profile, doc)
					if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
						t.Errorf("%s %s profile %s: dataset evaluation differs (-gather +direct):\n%s", ps.name, u.File, profile, diff)
					}
					if len(want.Hits) > 0 {
						withHits++
					}
				}
			}
		}
	}
	t.Logf("%d pack sets (%d modules written in tests), %d documents compared, %d with hits or actions, %d with errors", packsRun, len(inline), compared, withHits, withErr)
	// The comparison must have seen findings, actions and malformed output,
	// or it proved nothing.
	if (packsRun < 20 && sweep.Full()) || withHits < 200 || withErr == 0 {
		t.Errorf("compared %d pack sets, %d documents with findings, %d with errors: too few to prove anything", packsRun, withHits, withErr)
	}
}

// packSet is packs compiled together, named for messages.
type packSet struct {
	name  string
	packs []*policy.Pack
}

// fixtureUnit is one input file read as check reads it.
type fixtureUnit struct {
	lint.Unit
	shared bool // from ../shared/data
}

// fixtureUnits reads every .jsonl file under policies/, rules/ and
// fixtures/, and every data file of ../shared/data.
func fixtureUnits(t *testing.T, root string) []fixtureUnit {
	t.Helper()
	var out []fixtureUnit
	add := func(path string, shared bool) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var recs []jsonl.Record
		if strings.HasSuffix(path, ".json") {
			var ok bool
			if recs, ok, _ = jsonl.SplitJSON(data); !ok {
				return
			}
		} else {
			sc := bufio.NewScanner(bytes.NewReader(data))
			sc.Buffer(nil, 64<<20)
			for n := 1; sc.Scan(); n++ {
				if len(bytes.TrimSpace(sc.Bytes())) > 0 {
					recs = append(recs, jsonl.Record{Line: n, Data: append([]byte(nil), sc.Bytes()...)})
				}
			}
		}
		if len(recs) == 0 {
			return
		}
		format, first, _, ok := lint.Detect(path, recs[0])
		if !ok || format == "" {
			return
		}
		out = append(out, fixtureUnit{lint.Unit{File: path, Format: format, Records: recs, First: first}, shared})
	}
	for _, dir := range []string{"policies", "rules", "fixtures"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".jsonl") {
				add(path, false)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	shared := filepath.Join(root, "../shared/data")
	if _, err := os.Stat(shared); err == nil {
		filepath.WalkDir(shared, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".jsonl") || strings.HasSuffix(path, ".json")) {
				add(path, true)
			}
			return nil
		})
	}
	return out
}

// inlineModules returns, as a one-module pack each, every string literal of
// the repository's Go tests that is a whole Rego module of a chatlint pack.
func inlineModules(t *testing.T, root string) []packSet {
	t.Helper()
	var out []packSet
	fset := token.NewFileSet()
	for _, dir := range []string{"cmd", "engine", "beam"} {
		filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil || !strings.HasPrefix(strings.TrimSpace(s), "package chatlint.") {
					return true
				}
				pos := fset.Position(lit.Pos())
				name := filepath.Base(path) + ":" + strconv.Itoa(pos.Line)
				p := &policy.Pack{Name: "inline", Rego: []policy.File{{Name: name + ".rego", Source: []byte(s)}}}
				out = append(out, packSet{name, []*policy.Pack{p}})
				return true
			})
			return nil
		})
	}
	return out
}

// oraclePacks are two packs written to meet what the direct path must
// reproduce of the gather module: findings of two packages of one pack
// (sorted together, a finding both produce counted once), every set of a
// package (deny, warn, info and actions, read in the gather's order),
// complete rules whose value is an array or an object, a
// severity override, target and index keys, path and line, and malformed
// findings and actions of every kind.
func oraclePacks() []*policy.Pack {
	a := `package chatlint.oracle.a

# METADATA
# description: Fires on every message.
# custom:
#   id: o-each
deny contains f if {
	some i, m in input.messages
	f := {"rule": "o-each", "msg": sprintf("message %d", [i]), "message_index": i}
}

# METADATA
# description: Both packages write it.
# custom:
#   id: o-shared
#   severity: warning
warn contains {"rule": "o-shared", "msg": "same finding"} if count(input.messages) > 0

warn contains {"rule": "o-each", "msg": "severity given", "severity": "info", "path": "/messages", "line": 3} if count(input.messages) > 1

# METADATA
# description: Writes an info.
# custom:
#   id: o-info
info contains {"rule": "o-info", "message": "message key", "target": "/messages/0"} if count(input.messages) > 0

info contains {"rule": "o-info", "msg": "index keys", "message_index": 0, "tool_call_index": 1} if count(input.messages) > 2

# METADATA
# description: Asks for an action.
# custom:
#   id: o-act
actions contains {"op": "drop", "rule": "o-act", "reason": "r", "message_index": 0, "extra": [1, {"x": 2.5}]} if count(input.messages) > 1

actions contains {"op": "set", "rule": "o-act", "msg": "from msg", "target": "/messages/1", "content": "c"} if count(input.messages) > 2

actions contains "not an object" if count(input.messages) > 3

actions contains {"op": "drop", "rule": "o-act", "target": "/nowhere"} if count(input.messages) > 3
`
	b := `package chatlint.oracle.b

warn contains {"rule": "o-shared", "msg": "same finding"} if count(input.messages) > 0

deny contains {"rule": "o-each", "msg": "from b", "message_index": 0} if count(input.messages) > 0

deny contains "a string" if count(input.messages) > 4

deny contains {"rule": "o-undeclared", "msg": "x"} if count(input.messages) > 4

deny contains {"rule": "o-each"} if count(input.messages) > 5

deny contains {"rule": "o-each", "msg": 7} if count(input.messages) > 5

deny contains {"rule": "o-each", "msg": "bad severity", "severity": "fatal"} if count(input.messages) > 5

deny contains {"msg": "no rule"} if count(input.messages) > 6
`
	c := `package chatlint.oracle.c

# METADATA
# description: Complete rules whose value is an array or an object.
# custom:
#   id: o-complete
#   severity: error
deny := [{"rule": "o-complete", "msg": "array element"}, {"rule": "o-complete", "msg": "array element"}] if count(input.messages) > 0

warn := {"k1": {"rule": "o-complete", "msg": "object value"}, "k2": {"rule": "o-complete", "msg": "object value", "line": 2.5}} if count(input.messages) > 0
`
	d := `package chatlint.other

# METADATA
# description: Another pack's finding.
# custom:
#   id: o-other
deny contains {"rule": "o-other", "msg": "other pack", "entry_index": 1} if count(input.messages) > 0

warn contains {"rule": "o-each", "msg": "other pack names a rule of oracle"} if count(input.messages) > 1
`
	return []*policy.Pack{
		{Name: "oracle", Rego: []policy.File{{Name: "a.rego", Source: []byte(a)}, {Name: "b.rego", Source: []byte(b)}, {Name: "c.rego", Source: []byte(c)}}},
		{Name: "other", Rego: []policy.File{{Name: "d.rego", Source: []byte(d)}}},
	}
}

// TestRegoSetNotACollection: a deny that is a string is refused when the
// pack compiles, as it was when the gather module iterated it.
func TestRegoSetNotACollection(t *testing.T) {
	p := &policy.Pack{Name: "bad", Rego: []policy.File{{Name: "bad.rego", Source: []byte("package chatlint.bad\n\ndeny := \"a string\"\n")}}}
	_, err := policy.Compile(context.Background(), []*policy.Pack{p}, policy.Options{})
	if err == nil || !strings.Contains(err.Error(), "rego_type_error: undefined ref: data.chatlint.bad.deny[") {
		t.Errorf("compile error %v, want the type error of iterating a string", err)
	}
}

// TestRegoSetsQueried: the Rego step queries the sets some rule defines,
// one per package and set, packages in order and deny, warn, info,
// actions within one; a set no rule writes is not queried.
func TestRegoSetsQueried(t *testing.T) {
	e, err := policy.Compile(context.Background(), oraclePacks(), policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	record, dataset := policy.RegoSets(e)
	want := "chatlint.oracle.a.deny, chatlint.oracle.a.warn, chatlint.oracle.a.info, chatlint.oracle.a.actions, " +
		"chatlint.oracle.b.deny, chatlint.oracle.b.warn, chatlint.oracle.c.deny, chatlint.oracle.c.warn, " +
		"chatlint.other.deny, chatlint.other.warn"
	if record != want || dataset != "" {
		t.Errorf("sets queried:\n%s\n%q\nwant\n%s\n\"\"", record, dataset, want)
	}
}
