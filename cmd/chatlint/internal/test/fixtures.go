package test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/engine/config"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/runner"
)

// A fixture test is a pair of files in a pack's tests/ folder: NAME.jsonl,
// data in any input format, and NAME.expected.json, every finding the pack's
// rules must give on it. The comparison is exact (a multiset): a finding
// missing is a failure, and so is one not listed, so fixtures catch false
// positives as well as misses.
//
// A fixture may also be a folder tests/RULE[--CASE]/ about one rule:
// bad.jsonl must give exactly the findings of that rule listed in
// expected.json (other rules may fire too), good.jsonl none of that rule, and
// an optional file profile names the rule profile the case runs under, and
// an optional file model the model (from the packs' model tables).
type expectedFinding struct {
	Rule         string `json:"rule"`
	Severity     string `json:"severity"`
	Line         int    `json:"line"`
	MessageIndex *int   `json:"message_index,omitempty"`
}

func (e expectedFinding) String() string {
	s := fmt.Sprintf("line %d: %s %s", e.Line, e.Severity, e.Rule)
	if e.MessageIndex != nil {
		s += fmt.Sprintf(" (message %d)", *e.MessageIndex)
	}
	return s
}

func compareExpected(a, b expectedFinding) int {
	return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Severity, b.Severity),
		cmp.Compare(indexOr(a.MessageIndex), indexOr(b.MessageIndex)))
}

func indexOr(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

// fixtureResult is the outcome of one fixture.
type fixtureResult struct {
	Pack    string
	Name    string   // the data file, as shown
	Missing []string // expected, not found
	Extra   []string // found, not expected
	Err     error    // the fixture could not be run
	Rules   []string // rules the data triggered
}

func (r fixtureResult) failed() bool { return r.Err != nil || len(r.Missing) > 0 || len(r.Extra) > 0 }

// runFixtures runs the tests/ fixtures of one pack against the engine.
func runFixtures(ctx context.Context, eng *policy.Engine, pack *policy.Pack, src config.Source) []fixtureResult {
	var out []fixtureResult
	for i, fsys := range src.FSs {
		names, _ := fs.Glob(fsys, "tests/*.jsonl")
		for _, n := range names {
			shown := path.Join(src.Names[i], n)
			c := fixtureCase{data: n, expected: strings.TrimSuffix(n, ".jsonl") + ".expected.json"}
			out = append(out, runFixture(ctx, eng, pack.Name, fsys, c, shown))
		}
		dirs, _ := fs.Glob(fsys, "tests/*/bad.jsonl")
		goods, _ := fs.Glob(fsys, "tests/*/good.jsonl")
		for _, d := range slices.Compact(slices.Sorted(slices.Values(append(mapDirs(dirs), mapDirs(goods)...)))) {
			rule, _, _ := strings.Cut(path.Base(d), "--")
			profile, _ := fs.ReadFile(fsys, path.Join(d, "profile"))
			model, _ := fs.ReadFile(fsys, path.Join(d, "model"))
			c := fixtureCase{rule: rule, profile: strings.TrimSpace(string(profile)), model: strings.TrimSpace(string(model))}
			if bad := path.Join(d, "bad.jsonl"); slices.Contains(dirs, bad) {
				c.data, c.expected = bad, path.Join(d, "expected.json")
				out = append(out, runFixture(ctx, eng, pack.Name, fsys, c, path.Join(src.Names[i], bad)))
			}
			if good := path.Join(d, "good.jsonl"); slices.Contains(goods, good) {
				c.data, c.expected = good, ""
				out = append(out, runFixture(ctx, eng, pack.Name, fsys, c, path.Join(src.Names[i], good)))
			}
		}
	}
	return out
}

func mapDirs(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = path.Dir(f)
	}
	return out
}

// fixtureCase is one data file and what it must give.
type fixtureCase struct {
	data     string
	expected string // "" for a good.jsonl: no finding of rule
	rule     string // a folder case compares only this rule's findings
	profile  string
	model    string // the model the case runs for (a file model); "" for the tables' default
}

func runFixture(ctx context.Context, eng *policy.Engine, pack string, fsys fs.FS, c fixtureCase, shown string) fixtureResult {
	res := fixtureResult{Pack: pack, Name: shown}
	var want []expectedFinding
	if c.expected != "" {
		raw, err := fs.ReadFile(fsys, c.expected)
		if err != nil {
			res.Err = fmt.Errorf("no %s beside it: %w", path.Base(c.expected), err)
			return res
		}
		if err := json.Unmarshal(raw, &want); err != nil {
			res.Err = fmt.Errorf("%s: %v", path.Base(c.expected), err)
			return res
		}
	}
	f, err := fsys.Open(c.data)
	if err != nil {
		res.Err = err
		return res
	}
	defer f.Close()
	var got []expectedFinding
	model, err := cmdutil.PickModel(eng, c.model)
	if err != nil {
		res.Err = err
		return res
	}
	r := &runner.Runner{Engine: eng, Opts: runner.Options{Workers: 1, Document: document.Options{Profile: c.profile, Model: model}}}
	_, errs := r.Run(ctx, []runner.Input{{Name: shown, Reader: f}}, func(fd finding.Finding) {
		if fd.Pack != pack && fd.Pack != lint.CorePack || c.rule != "" && fd.Rule != c.rule {
			return
		}
		got = append(got, expectedFinding{Rule: fd.Rule, Severity: fd.Severity.String(), Line: fd.Line, MessageIndex: fd.MessageIndex})
		if !slices.Contains(res.Rules, fd.Rule) {
			res.Rules = append(res.Rules, fd.Rule)
		}
	})
	if len(errs) > 0 {
		res.Err = errs[0]
		return res
	}
	slices.SortFunc(want, compareExpected)
	slices.SortFunc(got, compareExpected)
	for i, j := 0, 0; i < len(want) || j < len(got); {
		switch {
		case j == len(got) || i < len(want) && compareExpected(want[i], got[j]) < 0:
			res.Missing = append(res.Missing, want[i].String())
			i++
		case i == len(want) || compareExpected(want[i], got[j]) > 0:
			res.Extra = append(res.Extra, got[j].String())
			j++
		default:
			i++
			j++
		}
	}
	return res
}
