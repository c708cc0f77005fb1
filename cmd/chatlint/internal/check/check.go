// Package check is `chatlint check`: the active rule packs over the inputs, through
// the gate, to the report writers.
package check

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/cmd/chatlint/internal/gcstart"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/gate"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/report"
	"github.com/chatlint/chatlint/engine/runner"
	"github.com/chatlint/chatlint/engine/setup"
)

type checkOptions struct {
	IO cmdutil.IOStreams

	cmdutil.PackOptions
	gateOptions
	// Settings: --fail-on, --format, --tool-calls, --allow-no-tools,
	// --profile, --max-line-size, --max-record-values, which the config
	// file may give too.
	setup.Settings
	from    configFrom // the config keys behind some values (config.go)
	Paths   []string
	Outputs []string
	Workers int
	Model   string
	Verbose bool
}

// NewCmdCheck returns the `chatlint check` command writing to s.
// runF, when not nil, receives the parsed options instead of the run (tests).
func NewCmdCheck(s cmdutil.IOStreams, runF func(*checkOptions) error) *cobra.Command {
	o := &checkOptions{IO: s}
	o.Notes = s.ErrOut
	cmd := &cobra.Command{
		Use:   "check PATH...",
		Short: "Check files, directories or - (stdin) against the active rule packs",
		Long: `Check evaluates every active rule over each conversation of the inputs.

Inputs are files, directories (walked recursively for *.jsonl, *.json, *.traj
and *.parquet, in sorted order) or - for standard input. The format of each file is detected
from its leading records (the first one a format recognizes, among the
first 16) unless --format forces one:

` + cmdutil.FormatHelp() + `

Settings come from .chatlint.yaml in the current folder or its nearest
parent (or --config FILE): packs, rule levels, per-file overrides,
suppressions, fail_on, format, output, baseline, rule_timeout. Flags win over
the file. -o FORMAT[=FILE] is repeatable, so one run can print text and write
SARIF and JUnit files. --baseline FILE reports only findings that are not in
a baseline written earlier with --write-baseline FILE. See docs/ci.md.

Only regular files are read (a walk follows symbolic links to them); name
a pipe as - to read it. A line longer than --max-line-size is reported as
line-too-long and skipped; a record that would build more values (member
values and list elements, at any depth, among those the rules read) than
--max-record-values is reported as record-too-dense and not checked (a
sparse record, 48 bytes or more of text for each value, such as a long
trajectory read as one .json document, may build twice as many): both bound
the memory one record takes.

Rules run under a profile: "default" judges each file as what it is (a chat
record that ends on a tool call is a fine-tuning example, a record without
tool calls needs no tools list); "export" keeps the strict checks an export
must pass. Packs declare the profiles they know (chatlint rules -o
markdown lists them).

The summary names each input's format and record count (per format; -v
lists every file); an empty file is a warning.

Exit status: 0 when nothing is at or above --fail-on, 1 when something is,
2 for usage, configuration or policy errors (including a policy that fails
while evaluating a document), unreadable inputs, no input file found, and no
rule active.`,
		Example: `  chatlint check data/train.jsonl
  chatlint check -o json --fail-on warning data/
  chatlint check --pack ./team-rules --allow-no-tools data/
  chatlint check -o github -o sarif=chatlint.sarif -o junit=chatlint.xml data/
  chatlint check -o html=report.html data/   # one offline page: charts, filterable findings
  chatlint check --write-baseline .chatlint-baseline.json data/   # adopt: record today's findings
  chatlint check --baseline .chatlint-baseline.json data/         # then fail only on new ones
  chatlint check --profile export -v exports/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Paths = args
			// The rest is checked in runCheck, once the config file has
			// filled in the flags not given.
			if len(o.Paths) == 0 {
				return cmdutil.UsageError("check needs at least one file, directory or - (stdin)")
			}
			if runF != nil {
				return runF(o)
			}
			return runCheck(cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&o.Outputs, "output", "o", nil, "write findings as `FORMAT[=FILE]` (repeatable; formats: "+strings.Join(report.Formats(), ", ")+"; default text to stdout)")
	f.StringVar(&o.FailOn, "fail-on", "error", "lowest severity that fails the run: error, warning, info or never")
	cmdutil.AddFormatFlag(cmd, &o.Format, cmdutil.FormatUsage())
	f.StringVar(&o.ToolCalls, "tool-calls", "", "force the tool-call representation: inline or structured (default: detect per record)")
	f.BoolVar(&o.AllowNoTools, "allow-no-tools", false, "do not require a tools list (turns off tools-shape)")
	cmdutil.AddWorkersFlag(cmd, &o.Workers)
	cmdutil.AddProfileFlag(cmd, &o.Profile, document.DefaultProfile, "rule profile: default, or one a pack declares (export; openai, mistral, together, bedrock: fine-tuning uploads)")
	f.StringVar(&o.Model, "model", "", "the model the data is for: its token limit and encoding come from the packs' model tables (default: the table's default)")
	f.StringVar(&o.MaxLineSize, "max-line-size", "64MiB", "longest line read; a longer one is a line-too-long finding (bytes, or with KiB, MiB, GiB)")
	cmdutil.AddMaxRecordValuesFlag(cmd, &o.MaxRecordValues, "a record over it is a record-too-dense finding and is not checked")
	f.BoolVarP(&o.Verbose, "verbose", "v", false, "list every input with its format and record count")
	cmdutil.AddPackFlags(cmd, &o.PackOptions)
	cmdutil.AddTimeoutFlags(cmd, &o.PackOptions)
	addGateFlags(cmd, &o.gateOptions)
	return cmd
}

func runCheck(cmd *cobra.Command, o *checkOptions) error {
	if err := applyCheckConfig(cmd, o); err != nil {
		return err
	}
	failOn, err := finding.ParseFailOn(o.FailOn)
	if err != nil {
		return cmdutil.UsageError("--fail-on: %v", err)
	}
	maxLine, err := setup.ParseSize(o.MaxLineSize)
	if err != nil {
		return cmdutil.UsageError("--max-line-size: %v", err)
	}
	maxValues, err := cmdutil.ParseMaxRecordValues(o.MaxRecordValues)
	if err != nil {
		return err
	}
	ropts := runner.Options{Workers: o.Workers, MaxLineSize: maxLine, Projected: true,
		Document: document.Options{ToolCalls: o.ToolCalls, Profile: o.Profile, MaxValues: maxValues}}
	if ropts.Format, err = cmdutil.ParseFormat(o.Format); err != nil {
		return err
	}
	if err := document.CheckToolCalls(o.ToolCalls); err != nil {
		return cmdutil.UsageError("--tool-calls: %v", err)
	}
	specs, err := cmdutil.ParseOutputs("check", o.Outputs)
	if err != nil {
		return cmdutil.UsageError("--output: %v", err)
	}
	color, err := cmdutil.UseColor(o.Color, o.IO.Out)
	if err != nil {
		return cmdutil.UsageError("--color: %v", err)
	}
	if o.AllowNoTools {
		o.Disable = append(o.Disable, "tools-shape")
	}
	eng, err := o.Compile(cmd.Context())
	if err != nil {
		return err
	}
	if err := cmdutil.CheckActive(eng, o.Profile); err != nil {
		return fromConfig(err, o.from.profile, "--profile")
	}
	// The fine-tuning profiles count every example's tokens, and their
	// live heap sits in the sessions' band, where it collected more often
	// for little less memory (cmd/chatlint/gc.go).
	gcstart.SessionBand.Store(o.Profile == document.DefaultProfile)
	if ropts.Document.Model, err = cmdutil.PickModel(eng, o.Model); err != nil {
		return err
	}

	inputs, errs, err := cmdutil.ExpandInputs(o.Paths, o.IO)
	if err != nil {
		return err
	}
	if err := cmdutil.RefuseInputs(cmdutil.InputNames(inputs), cmdutil.Output{Flag: "--write-baseline", Path: o.WriteBaseline}); err != nil {
		return err
	}
	w, err := cmdutil.OpenOutputs(specs, o.IO.Out, report.Options{
		Rules: cmdutil.Configured(cmdutil.UnderProfile(eng, cmdutil.ActiveRules(eng), o.Profile), o.LoadedConfig), Files: cmdutil.InputNames(inputs), FailOn: cmdutil.ReportFailOn(failOn), Version: cmdutil.Version(), Color: color, Verbose: o.Verbose,
	})
	if err != nil {
		return err
	}
	cfg, err := o.Config()
	if err != nil {
		w.Abort()
		return err
	}
	g, err := gate.New(cfg, gate.Options{Baseline: o.Baseline, WriteBaseline: o.WriteBaseline})
	if err != nil {
		w.Abort()
		return &cmdutil.ExitCode{Code: cmdutil.ExitError, Err: fromConfig(err, o.from.baseline, "--baseline")}
	}
	defer g.Abort()
	ropts.RecordHashes = o.Baseline != "" || o.WriteBaseline != ""
	for _, s := range specs {
		ropts.RecordHashes = ropts.RecordHashes || report.KeysFindings(s.Format)
	}
	r := &runner.Runner{Engine: eng, Opts: ropts}
	stop := cmdutil.ShowProgress(o.IO.ErrOut, r.Progress)
	var werr error
	unchecked := 0 // documents not checked (policy-error findings): exit 2, not 1
	sum, rerrs := r.Run(cmd.Context(), inputs, func(f finding.Finding) {
		if f.Rule == lint.RulePolicyError {
			unchecked++
		}
		if f, ok := g.Pass(f); ok && werr == nil {
			werr = w.Finding(f)
		}
	})
	stop()
	if werr != nil {
		w.Abort()
		return werr
	}
	sum = g.Summary(sum)
	for _, err := range errs { // named inputs that could not be read at all
		sum.Inputs = append(sum.Inputs, finding.Input{File: cmdutil.PathOf(err), Error: runner.Describe(err)})
	}
	sum.SortInputs()
	if err := w.Close(sum); err != nil {
		return err
	}
	if err := g.Finish(o.IO.ErrOut); err != nil {
		return err
	}
	errs = append(errs, rerrs...)
	for _, err := range errs {
		fmt.Fprintln(o.IO.ErrOut, "chatlint:", report.EscapeControls(runner.Describe(err)))
	}
	if unchecked > 0 {
		// The findings say which, in whatever format the report has; stderr
		// says why the exit status is 2 when the report goes elsewhere.
		fmt.Fprintf(o.IO.ErrOut, "chatlint: %d record(s) not checked: the rules failed on them (%s findings in the report)\n", unchecked, lint.RulePolicyError)
	}
	if len(errs) > 0 || unchecked > 0 {
		return &cmdutil.ExitCode{Code: cmdutil.ExitError}
	}
	if failOn != 0 && sum.Worst() >= failOn {
		return &cmdutil.ExitCode{Code: cmdutil.ExitFindings}
	}
	return nil
}
