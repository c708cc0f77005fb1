package main

import (
	"fmt"
	"io"

	"github.com/chatlint/chatlint/engine/config"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/lint"
)

// gate sits between the runner and the writers and applies what the team
// decided: rule levels and per-file overrides from the config, suppressions,
// and the baseline. It counts what it lets through, since that, not what the
// rules found, decides the exit status.
type gate struct {
	cfg                   *config.Config     // nil: no config
	base                  *baseline          // nil: no --baseline
	write                 *baselineWriter    // nil: no --write-baseline
	suppress              map[[2]string]bool // rule, record: from cfg.Suppressions
	sum                   finding.Summary
	baselined, suppressed int
}

// pass returns the finding as it should be reported, or false to drop it.
func (g *gate) pass(f finding.Finding) (finding.Finding, bool) {
	if f.Rule == lint.RulePolicyError { // a record that was not checked is never hidden
		g.sum.Add(f)
		return f, true
	}
	if g.cfg != nil {
		if lvl, ok := g.cfg.LevelFor(f.Rule, f.File); ok {
			if lvl == config.Off {
				return f, false
			}
			f.Severity = lvl.Severity()
		}
		if g.suppress[[2]string{f.Rule, f.Record}] {
			g.suppressed++
			return f, false
		}
	}
	if g.base != nil || g.write != nil {
		key := finding.Key(f, f.Identity())
		if g.write != nil {
			g.write.add(f, key)
		}
		if g.base != nil && g.base.known(key) {
			g.baselined++
			return f, false
		}
	}
	g.sum.Add(f)
	return f, true
}

// summary is the runner's file and record counts with the gate's counts of
// findings.
func (g *gate) summary(run finding.Summary) finding.Summary {
	s := g.sum
	s.Files, s.Records = run.Files, run.Records
	for _, in := range run.Inputs { // an empty input counts as a warning again
		s.AddInput(in)
	}
	return s
}

// newGate sets up the gate from the config and the baseline flags.
func (o *checkOptions) newGate() (*gate, error) {
	cfg, err := o.config()
	if err != nil {
		return nil, err
	}
	g := &gate{cfg: cfg}
	if cfg != nil && len(cfg.Suppressions) > 0 {
		// A set, not a scan of the list for every finding.
		g.suppress = map[[2]string]bool{}
		for _, s := range cfg.Suppressions {
			g.suppress[[2]string{s.Rule, s.Record}] = true
		}
	}
	if o.Baseline != "" {
		if g.base, err = loadBaseline(o.Baseline); err != nil {
			return nil, &exitCode{code: exitError, err: err}
		}
	}
	if o.WriteBaseline != "" {
		if g.write, err = newBaselineWriter(o.WriteBaseline); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// abort discards the baseline being written, when the run stops early; it
// does nothing once finish has run.
func (g *gate) abort() {
	if g.write != nil {
		g.write.abort()
	}
}

// finish writes the baseline file and says on stderr what was left out, so
// a quiet run is not mistaken for a clean dataset.
func (g *gate) finish(stderr io.Writer) error {
	if g.write != nil {
		if err := g.write.write(); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "chatlint: wrote %d findings to baseline %s\n", g.write.n, g.write.path)
	}
	if g.baselined > 0 {
		fmt.Fprintf(stderr, "chatlint: %d known findings in the baseline were not reported\n", g.baselined)
	}
	if g.suppressed > 0 {
		fmt.Fprintf(stderr, "chatlint: %d findings were suppressed by the config\n", g.suppressed)
	}
	return nil
}
