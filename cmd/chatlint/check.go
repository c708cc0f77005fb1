package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/gate"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/report"
	"github.com/chatlint/chatlint/engine/runner"
)

type checkOptions struct {
	packOptions
	gateOptions
	Paths        []string
	Outputs      []string
	FailOn       string
	Format       string
	ToolCalls    string
	AllowNoTools bool
	Workers      int
	Profile      string
	Model        string
	MaxLineSize  string
	Verbose      bool
}

func newCheckCmd(s streams) *cobra.Command {
	o := &checkOptions{}
	cmd := &cobra.Command{
		Use:   "check PATH...",
		Short: "Check files, directories or - (stdin) against the active rule packs",
		Long: `Check evaluates every active rule over each conversation of the inputs.

Inputs are files, directories (walked recursively for *.jsonl and *.json, in
sorted order) or - for standard input. The format of each file is detected
from its leading records (the first one a format recognizes, among the
first 16) unless --format forces one:

` + formatHelp() + `

Settings come from .chatlint.yaml in the current folder or its nearest
parent (or --config FILE): packs, rule levels, per-file overrides,
suppressions, fail_on, format, output, baseline, rule_timeout. Flags win over
the file. -o FORMAT[=FILE] is repeatable, so one run can print text and write
SARIF and JUnit files. --baseline FILE reports only findings that are not in
a baseline written earlier with --write-baseline FILE. See docs/ci.md.

Only regular files are read (a walk follows symbolic links to them); name
a pipe as - to read it. A line longer than --max-line-size is reported as
line-too-long and skipped.

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
			return runCheck(cmd, s, o)
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&o.Outputs, "output", "o", nil, "write findings as `FORMAT[=FILE]` (repeatable; formats: "+strings.Join(report.Formats(), ", ")+"; default text to stdout)")
	f.StringVar(&o.FailOn, "fail-on", "error", "lowest severity that fails the run: error, warning, info or never")
	f.StringVar(&o.Format, "format", "", "force the input format: "+document.FormatNames()+" (default: detect per file)")
	f.StringVar(&o.ToolCalls, "tool-calls", "", "force the tool-call representation: inline or structured (default: detect per record)")
	f.BoolVar(&o.AllowNoTools, "allow-no-tools", false, "do not require a tools list (turns off tools-shape)")
	f.IntVar(&o.Workers, "workers", 0, "number of parallel workers (default: GOMAXPROCS)")
	f.StringVar(&o.Profile, "profile", document.DefaultProfile, "rule profile: default, or one a pack declares (export; openai, mistral, together, bedrock: fine-tuning uploads)")
	f.StringVar(&o.Model, "model", "", "the model the data is for: its token limit and encoding come from the packs' model tables (default: the table's default)")
	f.StringVar(&o.MaxLineSize, "max-line-size", "64MiB", "longest line read; a longer one is a line-too-long finding (bytes, or with KiB, MiB, GiB)")
	f.BoolVarP(&o.Verbose, "verbose", "v", false, "list every input with its format and record count")
	addPackFlags(cmd, &o.packOptions)
	addTimeoutFlags(cmd, &o.packOptions)
	addGateFlags(cmd, &o.gateOptions)
	return cmd
}

func runCheck(cmd *cobra.Command, s streams, o *checkOptions) error {
	if len(o.Paths) == 0 {
		return usageError("check needs at least one file, directory or - (stdin)")
	}
	if err := applyCheckConfig(cmd, o); err != nil {
		return err
	}
	failOn, err := finding.ParseFailOn(o.FailOn)
	if err != nil {
		return usageError("--fail-on: %v", err)
	}
	maxLine, err := parseSize(o.MaxLineSize)
	if err != nil {
		return usageError("--max-line-size: %v", err)
	}
	ropts := runner.Options{Workers: o.Workers, MaxLineSize: maxLine,
		Document: document.Options{ToolCalls: o.ToolCalls, Profile: o.Profile}}
	if o.Format != "" {
		f, ok := document.ParseFormat(o.Format)
		if !ok {
			return usageError("--format: unknown input format %q (want %s)", o.Format, document.FormatNames())
		}
		ropts.Format = f
	}
	if err := document.CheckToolCalls(o.ToolCalls); err != nil {
		return usageError("--tool-calls: %v", err)
	}
	specs, err := parseOutputs(o.Outputs)
	if err != nil {
		return usageError("--output: %v", err)
	}
	color, err := useColor(o.Color, s.Out)
	if err != nil {
		return usageError("--color: %v", err)
	}
	if o.AllowNoTools {
		o.Disable = append(o.Disable, "tools-shape")
	}
	eng, err := o.compile(cmd.Context())
	if err != nil {
		return err
	}
	if err := checkActive(eng, o.Profile); err != nil {
		return err
	}
	if ropts.Document.Model, err = pickModel(eng, o.Model); err != nil {
		return err
	}

	inputs, errs, err := expandInputs(o.Paths, s)
	if err != nil {
		return err
	}
	w, err := openOutputs(specs, s.Out, report.Options{
		Rules: underProfile(configured(activeRules(eng), o.cfg), o.Profile), Files: inputNames(inputs), FailOn: reportFailOn(failOn), Version: version(), Color: color, Verbose: o.Verbose,
	})
	if err != nil {
		return err
	}
	cfg, err := o.config()
	if err != nil {
		w.abort()
		return err
	}
	g, err := gate.New(cfg, gate.Options{Baseline: o.Baseline, WriteBaseline: o.WriteBaseline})
	if err != nil {
		w.abort()
		return &exitCode{code: exitError, err: err}
	}
	defer g.Abort()
	r := &runner.Runner{Engine: eng, Opts: ropts}
	stop := showProgress(s.Err, r.Progress)
	var werr error
	policyFailed := false // a document was not checked: exit 2, not 1
	sum, rerrs := r.Run(cmd.Context(), inputs, func(f finding.Finding) {
		policyFailed = policyFailed || f.Rule == lint.RulePolicyError
		if f, ok := g.Pass(f); ok && werr == nil {
			werr = w.Finding(f)
		}
	})
	stop()
	if werr != nil {
		w.abort()
		return werr
	}
	sum = g.Summary(sum)
	for _, err := range errs { // named inputs that could not be read at all
		sum.Inputs = append(sum.Inputs, finding.Input{File: pathOf(err), Error: describe(err)})
	}
	sum.SortInputs()
	if err := w.Close(sum); err != nil {
		return err
	}
	if err := g.Finish(s.Err); err != nil {
		return err
	}
	errs = append(errs, rerrs...)
	for _, err := range errs {
		fmt.Fprintln(s.Err, "chatlint:", report.EscapeControls(describe(err)))
	}
	if len(errs) > 0 || policyFailed {
		return &exitCode{code: exitError}
	}
	if failOn != 0 && sum.Worst() >= failOn {
		return &exitCode{code: exitFindings}
	}
	return nil
}
