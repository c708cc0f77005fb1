// Command chatlint-beam checks a dataset with chatlint's rule packs as an
// Apache Beam pipeline: on the local prism runner by default, or, with
// Beam's runner flags, on Dataflow, Flink or Spark. Its findings are those
// of `chatlint check -o json`, one JSON object per line. With --fix it
// applies the cleanup packs of `chatlint fix` instead and writes the fixed
// records, the rejects and notes of what was left as it was.
//
// Flags are Go's standard flags rather than cobra's, because the Beam SDK
// declares its runner flags (--runner, --project, --endpoint, …) in the
// standard flag set and reads them from there, including on workers, which
// run this same binary.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/config"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/setup"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/chatlint/chatlint/beam/pipeline"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/fix"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/report"
)

// Exit status, as for `chatlint check`.
const (
	exitOK       = 0
	exitFindings = 1
	exitError    = 2
)

type options struct {
	Inputs       []string
	Output       string
	Summary      string
	Shards       int
	Reshuffle    bool
	Packs        []string
	NoBuiltin    bool
	Disable      []string
	Timeout      time.Duration
	Format       string
	MaxLineSize  int
	MaxValues    int // --max-record-values
	ToolCalls    string
	AllowNoTools bool
	FailOn       string
	Fix          bool
	MaxPasses    int
	Profile      string
	Model        string
	ConfigPath   string
	// given names the flags the command line set (noteGiven): a config
	// file's key applies only where its flag was not given, as in check.
	given map[string]bool
}

// noteGiven records which flags of fs the command line set.
func (o *options) noteGiven(fs *flag.FlagSet) {
	o.given = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.given[f.Name] = true })
	if o.given["record-timeout"] {
		o.given["rule-timeout"] = true
	}
}

func addFlags(fs *flag.FlagSet, o *options) {
	fs.Func("input", "files to check: a glob, local or gs:// and other Beam filesystems (repeatable)", func(v string) error {
		o.Inputs = append(o.Inputs, v)
		return nil
	})
	fs.StringVar(&o.Output, "output", "", "where to write the findings, one JSON object per line (with --fix: the fixed records)")
	fs.StringVar(&o.Summary, "summary", "", "where to write the summary as JSON (default: OUTPUT.summary.json)")
	fs.IntVar(&o.Shards, "shards", 1, "number of findings files; above 1 they are named OUTPUT-SSSSS-of-NNNNN")
	fs.BoolVar(&o.Reshuffle, "reshuffle", false, "spread the records of each file over all workers (for a few large files; costs a shuffle of the data)")
	fs.Func("pack", "add a rule pack: a folder, or builtin:NAME for one built-in pack only (repeatable)", func(v string) error {
		o.Packs = append(o.Packs, v)
		return nil
	})
	fs.BoolVar(&o.NoBuiltin, "no-builtin", false, "do not load the built-in packs")
	fs.Func("disable", "turn a rule off by id (repeatable)", func(v string) error {
		o.Disable = append(o.Disable, v)
		return nil
	})
	o.Timeout = policy.DefaultRuleTimeout
	fs.Var((*ruleTimeout)(&o.Timeout), "rule-timeout", "time limit for evaluating the rules on one conversation or session (a positive duration)")
	fs.Var((*ruleTimeout)(&o.Timeout), "record-timeout", "deprecated: use --rule-timeout")
	fs.StringVar(&o.Format, "format", "", "force the input format (default: detect per file)")
	o.MaxLineSize = jsonl.DefaultMaxLineSize
	fs.Var((*lineSize)(&o.MaxLineSize), "max-line-size", "longest line read; a longer one is a line-too-long finding (bytes, or with KiB, MiB, GiB)")
	o.MaxValues = astjson.DefaultMaxValues
	fs.Func("max-record-values", fmt.Sprintf("most values (member values and list elements, at any depth) one record may build, twice as many for a record of 48 bytes or more a value; a record over it is a record-too-dense finding, not checked, and with --fix written back as it is (default %d)", astjson.DefaultMaxValues), func(v string) error {
		n, err := setup.ParseCount(v)
		o.MaxValues = n
		return err
	})
	fs.StringVar(&o.ToolCalls, "tool-calls", "", "force the tool-call representation: inline or structured (default: detect per record)")
	fs.BoolVar(&o.AllowNoTools, "allow-no-tools", false, "do not require a tools list (turns off tools-shape)")
	fs.StringVar(&o.FailOn, "fail-on", "", "lowest severity that makes the exit status 1: error, warning, info or never (default error)")
	fs.StringVar(&o.Profile, "profile", document.DefaultProfile, "rule profile: default, or one a pack declares (export, …), as check's --profile")
	fs.StringVar(&o.Model, "model", "", "the model the data is for (token limit, encoding, price), as check's --model (default: the model tables' default)")
	fs.StringVar(&o.ConfigPath, "config", "", "apply this .chatlint.yaml `FILE` as check does: its packs, rule levels, per-file overrides, suppressions and settings (a flag given wins); a file with a baseline or outputs is refused, as a distributed job can use neither")
	fs.BoolVar(&o.Fix, "fix", false, "apply cleanup packs instead of checking: --output gets the fixed records, OUTPUT.rejects.jsonl what was dropped, OUTPUT.notes.jsonl what was left as it was (--pack names the cleanup packs; default: each format's built-in one)")
	fs.IntVar(&o.MaxPasses, "max-passes", fix.DefaultMaxPasses, "with --fix: most passes over one record before it is left as it was")
}

func main() {
	o := &options{}
	addFlags(flag.CommandLine, o)
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "Usage: chatlint-beam [--fix] --input GLOB --output FILE [flags] [Beam runner flags]\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	o.noteGiven(flag.CommandLine)
	tuneGC()
	// On a worker, Init runs the worker harness and never returns.
	beam.Init()
	os.Exit(run(context.Background(), o, os.Stderr))
}

// run launches the job and waits for it, then reports its summary on
// stderr. It returns the exit status.
func run(ctx context.Context, o *options, stderr io.Writer) int {
	job, failOn, err := o.job(ctx)
	if err == nil {
		err = pipeline.CheckOutputs(ctx, job)
	}
	if err != nil {
		fmt.Fprintln(stderr, "chatlint-beam:", err)
		return exitError
	}
	p, s := beam.NewPipelineWithRoot()
	if err := pipeline.Build(s, job); err != nil {
		fmt.Fprintln(stderr, "chatlint-beam:", err)
		return exitError
	}
	if err := beamx.Run(ctx, p); err != nil {
		fmt.Fprintln(stderr, "chatlint-beam: the job failed:", err)
		return exitError
	}
	if submittedOnly() {
		// The summary file, if any, is an earlier job's: do not report it.
		fmt.Fprintf(stderr, "chatlint-beam: not waiting for the job (--async or --dry_run); its output goes to %s, its summary to %s\n", files(job.Output, job.Shards), job.Summary)
		return exitOK
	}
	sum, err := pipeline.ReadSummary(ctx, job.Summary)
	if err != nil {
		fmt.Fprintf(stderr, "chatlint-beam: the job did not fail, but its summary cannot be read here: %v\n", err)
		return exitOK
	}
	if job.Fix != nil {
		return fixReport(stderr, job, sum)
	}
	// The closing line of `chatlint check`, then where the findings are.
	fs := finding.Summary{Files: sum.Files, Records: sum.Records, Errors: sum.Errors, Warnings: sum.Warnings, Infos: sum.Infos}
	w, _ := report.New("text", stderr)
	w.Close(fs)
	fmt.Fprintf(stderr, "findings: %s\nsummary: %s\n", files(job.Output, job.Shards), job.Summary)
	if slices.ContainsFunc(sum.Rules, func(r pipeline.RuleCount) bool { return r.Rule == lint.RulePolicyError }) {
		return exitError // a document was not checked, as in check
	}
	if failOn != 0 && sum.Worst() >= failOn {
		return exitFindings
	}
	return exitOK
}

// job checks the flags, reads the packs and makes sure the input matches
// something, so that mistakes show here rather than on the workers.
func (o *options) job(ctx context.Context) (pipeline.Options, finding.Severity, error) {
	if len(o.Inputs) == 0 || o.Output == "" {
		return pipeline.Options{}, 0, errors.New("--input and --output are required")
	}
	if o.Shards < 1 {
		return pipeline.Options{}, 0, fmt.Errorf("--shards: want 1 or more, not %d", o.Shards)
	}
	if o.Fix {
		return o.fixJob(ctx)
	}
	if o.MaxPasses != fix.DefaultMaxPasses {
		return pipeline.Options{}, 0, errors.New("--max-passes applies to --fix only")
	}
	cfg, err := o.config()
	if err != nil {
		return pipeline.Options{}, 0, err
	}
	if o.FailOn == "" {
		o.FailOn = "error"
	}
	failOn, err := finding.ParseFailOn(o.FailOn)
	if err != nil {
		return pipeline.Options{}, 0, fmt.Errorf("--fail-on: %v", err)
	}
	packs, err := pipeline.LoadPacks(cfg, o.Packs, o.NoBuiltin)
	if err != nil {
		return pipeline.Options{}, 0, err
	}
	disable := o.Disable
	if o.AllowNoTools {
		disable = append(disable, "tools-shape")
	}
	settings, err := pipeline.LoadSettings(o.ConfigPath)
	if err != nil {
		return pipeline.Options{}, 0, err
	}
	timeout := o.Timeout
	if !o.given["rule-timeout"] {
		timeout = 0 // the config's rule_timeout, else the default
	}
	pc := pipeline.Config{Packs: packs, Disable: disable, RecordTimeout: setup.RuleTimeout(timeout, cfg), Format: o.Format, ToolCalls: o.ToolCalls,
		MaxLineSize: o.MaxLineSize, MaxValues: o.MaxValues, Profile: o.Profile, Model: o.Model, Settings: settings}
	if err := pc.Validate(ctx); err != nil {
		return pipeline.Options{}, 0, err
	}
	if err := o.checkInputs(ctx, false); err != nil {
		return pipeline.Options{}, 0, err
	}
	return o.options(pc), failOn, nil
}

// config reads --config (setup.LoadConfig) and applies its settings where
// their flags were not given; it refuses the keys a distributed job cannot
// honour rather than ignore them. nil without --config: unlike check,
// chatlint-beam reads no .chatlint.yaml it is not given, as a job launched
// from a checkout must not change with the folder it is launched from.
func (o *options) config() (*config.Config, error) {
	if o.ConfigPath == "" {
		return nil, nil
	}
	cfg, _, err := setup.LoadConfig(o.ConfigPath, false)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	if len(cfg.Output) > 0 {
		return nil, fmt.Errorf("config %s: output: chatlint-beam writes its findings to --output only; use a config without output", cfg.Path)
	}
	if cfg.Baseline != "" {
		return nil, fmt.Errorf("config %s: baseline: a distributed job cannot share a baseline's counts between workers; use a config without baseline", cfg.Path)
	}
	given := func(flag string) bool { return o.given[flag] }
	s := setup.Settings{FailOn: o.FailOn, Format: o.Format, ToolCalls: o.ToolCalls, AllowNoTools: o.AllowNoTools, Profile: o.Profile}
	s.FromConfig(cfg, given)
	o.FailOn, o.Format, o.ToolCalls, o.AllowNoTools, o.Profile = s.FailOn, s.Format, s.ToolCalls, s.AllowNoTools, s.Profile
	if s.MaxLineSize != "" {
		n, err := setup.ParseSize(s.MaxLineSize)
		if err != nil {
			return nil, fmt.Errorf("config %s: max_line_size: %v", cfg.Path, err)
		}
		o.MaxLineSize = n
	}
	if s.MaxRecordValues != "" {
		n, err := setup.ParseCount(s.MaxRecordValues)
		if err != nil {
			return nil, fmt.Errorf("config %s: max_record_values: %v", cfg.Path, err)
		}
		o.MaxValues = n
	}
	return cfg, nil
}

// checkInputs makes sure every glob matches a file, and, for fix, none a
// .json document.
func (o *options) checkInputs(ctx context.Context, fixing bool) error {
	for _, glob := range o.Inputs {
		if err := pipeline.CheckInput(ctx, glob, fixing); err != nil {
			return err
		}
	}
	return nil
}

// options are the job's paths and shape; the summary defaults to
// OUTPUT.summary.json.
func (o *options) options(cfg pipeline.Config) pipeline.Options {
	summary := o.Summary
	if summary == "" {
		summary = o.Output + ".summary.json"
	}
	return pipeline.Options{Inputs: o.Inputs, Output: o.Output, Shards: o.Shards, Reshuffle: o.Reshuffle, Summary: summary, Config: cfg}
}

// submittedOnly reports whether the runner returned without running the
// job to its end: --async (Dataflow, universal runners) or Dataflow's
// --dry_run.
func submittedOnly() bool {
	for _, name := range []string{"async", "dry_run"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() == "true" {
			return true
		}
	}
	return false
}
