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
	"github.com/chatlint/chatlint/engine/rule"
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
		var err error
		if g.write, err = newBaselineWriter(opts.WriteBaseline); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// Abort discards the baseline being written, when the run stops early; it
// does nothing once Finish has run.
func (g *Gate) Abort() {
	if g.write != nil {
		g.write.abort()
	}
}

// Finish writes the baseline file and says on stderr what was left out, so
// a quiet run is not mistaken for a clean dataset.
func (g *Gate) Finish(stderr io.Writer) error {
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

// CheckRules refuses a config that names a rule no pack has (a misspelt id
// would silently change nothing), naming the closest ids. The reader's own
// rules and rules turned off by --disable count as known.
func CheckRules(cfg *config.Config, eng *policy.Engine) error {
	if cfg == nil {
		return nil
	}
	all := append(eng.AllRules(), lint.CoreRules...)
	known := map[string]bool{}
	for _, r := range all {
		known[r.ID] = true
	}
	return cfg.CheckRulesHint(func(id string) bool { return known[id] }, func(id string) string { return rule.Suggest(id, all) })
}
