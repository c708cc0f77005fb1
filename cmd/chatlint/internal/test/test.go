// Package test is `chatlint test`: a pack's Rego unit tests and its fixture folders.
package test

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/rule"
)

type testOptions struct {
	IO cmdutil.IOStreams

	cmdutil.PackOptions
	Targets []string // packs named as arguments; empty means every loaded pack
}

// NewCmdTest returns the `chatlint test` command writing to s.
// runF, when not nil, receives the parsed options instead of the run (tests).
func NewCmdTest(s cmdutil.IOStreams, runF func(*testOptions) error) *cobra.Command {
	o := &testOptions{IO: s, PackOptions: cmdutil.PackOptions{Cleanup: true, Notes: s.ErrOut}}
	cmd := &cobra.Command{
		Use:   "test [PACK...]",
		Short: "Run the packs' Rego unit tests and fixture tests",
		Long: `Test runs two kinds of tests for each pack named (a folder, builtin:NAME or an
OPA bundle), or for every active pack when none is named:

  - the Rego unit tests (test_ rules in *_test.rego files), with chatlint's
    builtins available, as opa test would;
  - the fixture tests: each tests/NAME.jsonl of the pack, checked with the
    pack's rules, must give exactly the findings listed in
    tests/NAME.expected.json, a JSON array of
    {"rule", "severity", "line", "message_index"} (message_index optional).

It prints PASS or FAIL per test, a coverage line per rule (rules that no
fixture triggers are listed as such) and "N passed, N failed". Exit status 1
when a test fails, 2 when a pack does not load or compile.`,
		Example: `  chatlint test                       # the active packs (config, built-in, --pack)
  chatlint test ./policies/team       # one pack: its *_test.rego and tests/*.jsonl
  chatlint test builtin:integrity`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Targets = args
			if runF != nil {
				return runF(o)
			}
			return runTest(cmd, o)
		},
	}
	cmdutil.AddPackFlags(cmd, &o.PackOptions)
	cmdutil.AddTimeoutFlags(cmd, &o.PackOptions)
	return cmd
}

func runTest(cmd *cobra.Command, o *testOptions) error {
	o.Packs = append(o.Packs, o.Targets...)
	l, err := o.Loader()
	if err != nil {
		return err
	}
	packs := l.Packs()
	targets := packs
	if len(o.Targets) > 0 {
		targets = targets[:0:0]
		for _, p := range packs {
			if src := l.Source(p); slices.ContainsFunc(o.Targets, func(t string) bool { return sameRef(t, src.Ref) }) {
				targets = append(targets, p)
			}
		}
	}
	// Unit tests of the target packs only, compiled with every pack they
	// may import.
	withTests := make([]*policy.Pack, len(packs))
	for i, p := range packs {
		cp := *p
		if !slices.Contains(targets, p) {
			cp.Tests = nil
		}
		withTests[i] = &cp
	}
	results, err := policy.RunRegoTests(cmd.Context(), withTests)
	if err != nil {
		return cmdutil.CompileFailure(err)
	}
	passed, failed := 0, 0
	for _, r := range results {
		switch {
		case r.Err != nil:
			failed++
			fmt.Fprintf(o.IO.Out, "%s: ERROR %s: %v\n", r.Location, r.Name, r.Err)
		case r.Fail:
			failed++
			fmt.Fprintf(o.IO.Out, "%s: FAIL %s\n", r.Location, r.Name)
		default:
			passed++
			fmt.Fprintf(o.IO.Out, "%s: PASS %s\n", r.Location, r.Name)
		}
	}
	eng, err := o.CompilePacks(cmd.Context(), packs)
	if err != nil {
		return err
	}
	for _, p := range targets {
		fixtures := runFixtures(cmd.Context(), eng, p, l.Source(p))
		for _, r := range fixtures {
			if r.failed() {
				failed++
			} else {
				passed++
			}
			printFixture(o.IO.Out, r)
		}
		printCoverage(o.IO.Out, p, eng.Rules(), fixtures)
	}
	fmt.Fprintf(o.IO.Out, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return &cmdutil.ExitCode{Code: cmdutil.ExitFindings}
	}
	return nil
}

// sameRef reports whether a pack named on the command line is the pack
// loaded from ref (the config names folders relative to itself).
func sameRef(arg, ref string) bool {
	if arg == ref {
		return true
	}
	if strings.HasPrefix(arg, "builtin:") || strings.HasPrefix(ref, "builtin:") {
		return false
	}
	a, err1 := filepath.Abs(arg)
	b, err2 := filepath.Abs(ref)
	return err1 == nil && err2 == nil && a == b
}

func printFixture(w io.Writer, r fixtureResult) {
	if !r.failed() {
		fmt.Fprintf(w, "%s: PASS fixture\n", r.Name)
		return
	}
	if r.Err != nil {
		fmt.Fprintf(w, "%s: ERROR fixture: %v\n", r.Name, r.Err)
		return
	}
	fmt.Fprintf(w, "%s: FAIL fixture\n", r.Name)
	for _, m := range r.Missing {
		fmt.Fprintf(w, "    missing:    %s\n", m)
	}
	for _, e := range r.Extra {
		fmt.Fprintf(w, "    unexpected: %s\n", e)
	}
}

// printCoverage prints one line per rule of the pack: how many fixtures
// trigger it, or that none does.
func printCoverage(w io.Writer, p *policy.Pack, rules []rule.Rule, fixtures []fixtureResult) {
	for _, r := range rules {
		if r.Pack != p.Name {
			continue
		}
		n := 0
		for _, f := range fixtures {
			if slices.Contains(f.Rules, r.ID) {
				n++
			}
		}
		if n == 0 {
			fmt.Fprintf(w, "coverage %s: %s: no fixture triggers it\n", p.Name, r.ID)
		} else {
			fmt.Fprintf(w, "coverage %s: %s: %d fixture(s)\n", p.Name, r.ID, n)
		}
	}
}
