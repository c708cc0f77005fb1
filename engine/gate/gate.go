// Package gate applies what a team decided about findings between the rules
// and the reports: rule levels and per-file overrides from the config,
// suppressions, and a baseline of known findings. check and the Beam job
// both pass their findings through it, so a team's config means the same
// wherever the dataset is checked.
package gate

import (
	"fmt"
	"io"

	"github.com/chatlint/chatlint/engine/config"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/policy"
)

// Gate sits between the runner and the writers. It counts what it lets
// through, since that, not what the rules found, decides the exit status.
// A Gate is not safe for concurrent use: findings pass it in input order.
type Gate struct {
	cfg                   *config.Config     // nil: no config
	base                  *baseline          // nil: no --baseline
	write                 *baselineWriter    // nil: no --write-baseline
	suppress              map[[2]string]bool // rule, record: from cfg.Suppressions
	sum                   finding.Summary
	baselined, suppressed int
}

// Pass returns the finding as it should be reported, or false to drop it.
func (g *Gate) Pass(f finding.Finding) (finding.Finding, bool) {
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

// Summary is the runner's file and record counts with the gate's counts of
// findings.
func (g *Gate) Summary(run finding.Summary) finding.Summary {
	s := g.sum
	s.Files, s.Records = run.Files, run.Records
	for _, in := range run.Inputs { // an empty input counts as a warning again
		s.AddInput(in)
	}
	return s
}

// Options name the baseline files of a run; empty means none.
type Options struct {
	Baseline      string // --baseline: report only findings not in it
	WriteBaseline string // --write-baseline: record this run's findings in it
}

// New sets up the gate from the config (nil: none) and the baseline files.
func New(cfg *config.Config, opts Options) (*Gate, error) {
	g := &Gate{cfg: cfg}
	if cfg != nil && len(cfg.Suppressions) > 0 {
		// A set, not a scan of the list for every finding.
		g.suppress = map[[2]string]bool{}
		for _, s := range cfg.Suppressions {
			g.suppress[[2]string{s.Rule, s.Record}] = true
		}
	}
	if opts.Baseline != "" {
		var err error
		if g.base, err = loadBaseline(opts.Baseline); err != nil {
			return nil, err
		}
	}
	if opts.WriteBaseline != "" {
		g.write = &baselineWriter{path: opts.WriteBaseline}
	}
	return g, nil
}

// Finish writes the baseline file and says on stderr what was left out, so
// a quiet run is not mistaken for a clean dataset.
func (g *Gate) Finish(stderr io.Writer) error {
	if g.write != nil {
		if err := g.write.write(); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "chatlint: wrote %d findings to baseline %s\n", len(g.write.entries), g.write.path)
	}
	if g.baselined > 0 {
		fmt.Fprintf(stderr, "chatlint: %d known findings in the baseline were not reported\n", g.baselined)
	}
	if g.suppressed > 0 {
		fmt.Fprintf(stderr, "chatlint: %d findings were suppressed by the config\n", g.suppressed)
	}
	return nil
}

// CheckRules refuses a config that names a rule no active pack has (a
// misspelt id would silently change nothing). The reader's own rules and
// the rules turned off on the command line count as known.
func CheckRules(cfg *config.Config, eng *policy.Engine, disabled []string) error {
	if cfg == nil {
		return nil
	}
	known := map[string]bool{}
	for _, r := range eng.Rules() {
		known[r.ID] = true
	}
	for _, r := range lint.CoreRules {
		known[r.ID] = true
	}
	for _, id := range disabled {
		known[id] = true
	}
	return cfg.CheckRules(func(id string) bool { return known[id] })
}
