package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/chatlint/chatlint/engine/config"
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
			out = append(out, runFixture(ctx, eng, pack.Name, fsys, n, shown))
		}
	}
	return out
}

func runFixture(ctx context.Context, eng *policy.Engine, pack string, fsys fs.FS, name, shown string) fixtureResult {
	res := fixtureResult{Pack: pack, Name: shown}
	expFile := strings.TrimSuffix(name, ".jsonl") + ".expected.json"
	raw, err := fs.ReadFile(fsys, expFile)
	if err != nil {
		res.Err = fmt.Errorf("no %s beside it: %w", path.Base(expFile), err)
		return res
	}
	var want []expectedFinding
	if err := json.Unmarshal(raw, &want); err != nil {
		res.Err = fmt.Errorf("%s: %v", path.Base(expFile), err)
		return res
	}
	f, err := fsys.Open(name)
	if err != nil {
		res.Err = err
		return res
	}
	defer f.Close()
	var got []expectedFinding
	r := &runner.Runner{Engine: eng, Opts: runner.Options{Workers: 1}}
	_, errs := r.Run(ctx, []runner.Input{{Name: shown, Reader: f}}, func(fd finding.Finding) {
		if fd.Pack != pack && fd.Pack != lint.CorePack {
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
