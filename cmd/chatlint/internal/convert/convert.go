// Package convert is `chatlint convert`: the reference converter's drop-in (-l LOGS
// -o FOLDER) and `--to openai`.
package convert

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/engine/config"
	"github.com/chatlint/chatlint/engine/convert"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/openai"
	"github.com/chatlint/chatlint/engine/report"
	"github.com/chatlint/chatlint/engine/runner"
)

// Rand, when set (by tests), gives the randomness for anonymizing the
// record of session i, so that golden files are stable.
var Rand func(i int) io.Reader

type convertOptions struct {
	IO cmdutil.IOStreams

	Logs, Output   string
	SingleFile     bool
	GroupBy        string
	JSONToolCalls  bool
	ToolReport     bool
	ToolReportPath string
	Integrity      bool
	Anonymize      bool
	CleanupGoose   bool
	Verbose        bool
	KeepGoing      bool
	Cleanup        []string
	Workers        int
	FailOn         string
	// convert --to (see convertto.go)
	To            string
	KeepReasoning bool
	Split         string
	Format        string
	Model         string
	KTONegatives  string
	// MaxRecordValues is --max-record-values, which only --to reads.
	MaxRecordValues string
	Inputs          []string // the arguments, which only --to reads

	toMode    bool             // --to given: Inputs to Format, not the drop-in
	failOn    finding.Severity // FailOn, parsed (0 for never)
	format    document.Format  // Format, parsed
	maxValues int              // MaxRecordValues, parsed
}

// NewCmdConvert returns the `chatlint convert` command writing to s.
// runF, when not nil, receives the parsed and validated options instead of
// the run (tests).
func NewCmdConvert(s cmdutil.IOStreams, runF func(*convertOptions) error) *cobra.Command {
	o := &convertOptions{IO: s}
	cmd := &cobra.Command{
		Use:   "convert [--to openai [-o FILE] INPUT...]",
		Short: "Squash proxy request/response logs into a fine-tuning dataset (drop-in for albicilla-conv), or convert any format with --to",
		Long: `Convert turns a folder of proxy logs (one session per *.jsonl file, one
request/response pair per line) into one {"messages", "tools"} record per
session, grouped into one file per date (or per scenario, or one file), with
tool-usage.csv and integrity-report.txt beside them. It takes the flags of the
reference converter albicilla-conv and writes the same bytes for the same logs.

Before squashing, each entry is cleaned by the goose cleanup pack (turn off
with --no-cleanup-goose; add packs with --cleanup). A session whose entries
disagree on session_id or whose timestamps do not increase aborts the run
(exit 1) and nothing but the integrity report is written, unless --keep-going.

Lines that are not entries, trailing shorter entries and defects the
reference does not report are WARNING lines of the integrity report.

With --to openai, convert instead reads INPUT... (files, folders, -) of any
format check recognizes and writes OpenAI chat fine-tuning JSONL, one example
per conversation ({"messages", "tools"}), to -o FILE (atomically) or standard
output; what an example cannot hold is a note on standard error
(file:line: warning convert-lossy: ...). Preference records (ShareGPT
chosen/rejected) become preference (DPO) examples; KTO records marked
undesirable are never written as examples (--kto-negatives); a Batch input is
joined with its output by custom_id (give both files). See docs/convert.md.

Exit status: 0 (also with ERROR findings, unless --fail-on), 1 when a session
aborted the run, no record was written from files that are not empty, or
findings reach --fail-on, 2 for usage errors, unreadable files and packs that
do not compile.`,
		Example: `  chatlint convert --logs proxy_logs --output dataset
  chatlint convert -l proxy_logs -o dataset --group-by scenario --json-tool-calls
  chatlint convert -l proxy_logs -o dataset --keep-going --fail-on error
  chatlint convert --to openai -o train.jsonl sessions/ chats.jsonl`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Inputs = args
			o.toMode = o.To != "" || cmd.Flags().Changed("to")
			var err error
			if o.toMode {
				err = o.validateTo(cmd.Flags())
			} else {
				err = o.validateDropIn(cmd.Flags())
			}
			switch {
			case err != nil:
				return err
			case runF != nil:
				return runF(o)
			case o.toMode:
				return runConvertTo(cmd, o)
			}
			return runConvert(cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.Logs, "logs", "l", "./proxy_logs", "folder of JSONL log files, one session per file")
	f.StringVarP(&o.Output, "output", "o", "./output", "folder to write the dataset and reports to (created)")
	f.BoolVarP(&o.SingleFile, "single-file", "s", false, "write every record to one conversations.jsonl")
	f.StringVar(&o.GroupBy, "group-by", convert.GroupDate, "one output file per date or per scenario")
	boolPair(f, &o.JSONToolCalls, "json-tool-calls", "j", "J", false, "write tool calls and results inline as <tool_call>/<tool_result> text")
	boolPair(f, &o.ToolReport, "tool-report", "", "", true, "write the tool usage report")
	f.StringVar(&o.ToolReportPath, "tool-report-path", "", "path of the tool usage report (default OUTPUT/tool-usage.csv)")
	boolPair(f, &o.Integrity, "integrity-analysis", "", "", true, "check each record and write integrity-report.txt and .json")
	boolPair(f, &o.Anonymize, "anonymize", "", "", true, "replace e-mail addresses in the records")
	boolPair(f, &o.CleanupGoose, "cleanup-goose", "", "", true, "apply the goose cleanup pack to each entry")
	f.BoolVarP(&o.Verbose, "verbose", "v", false, "log each session on stderr")
	f.BoolVar(&o.KeepGoing, "keep-going", false, "skip a session that fails validation (an ERROR line) instead of aborting")
	f.StringArrayVar(&o.Cleanup, "cleanup", nil, "apply a cleanup pack after goose: a folder, builtin:NAME or an OPA bundle (repeatable)")
	cmdutil.AddWorkersFlag(cmd, &o.Workers)
	f.StringVar(&o.FailOn, "fail-on", "never", "lowest severity of the report that fails the run: error, warning or never")
	f.StringVar(&o.To, "to", "", "convert INPUT... of any recognized format to this format instead: openai (fine-tuning JSONL; -o FILE, standard output without it)")
	f.BoolVar(&o.KeepReasoning, "keep-reasoning", false, "with --to: keep thinking and reasoning blocks as <think>...</think> before the assistant's text")
	f.StringVar(&o.Split, "split", "", "with --to: turns writes one example per assistant message")
	cmdutil.AddFormatFlag(cmd, &o.Format, "with --to: force the input format ("+document.FormatNames()+")")
	f.StringVar(&o.KTONegatives, "kto-negatives", openai.KTOSkip, "with --to: what a KTO record marked undesirable (label false) gives: skip (no example, a warning) or error (no example, exit 1); never a positive example")
	f.StringVar(&o.Model, "model", "", "with --to: the model the examples are for; an example over its token limit is noted (default: the built-in model table's default)")
	cmdutil.AddMaxRecordValuesFlag(cmd, &o.MaxRecordValues, "with --to: a record over it is not converted, with a record-too-dense note")
	return cmd
}

// boolPair declares --name and its hidden opposite --no-name (and their
// short forms), as the reference's --x/--no-x options: the last one given
// wins.
func boolPair(f *pflag.FlagSet, p *bool, name, short, noShort string, def bool, usage string) {
	usage += " (--no-" + name + " to turn off)"
	f.BoolVarP(p, name, short, def, usage)
	no := f.VarPF(negated{p}, "no-"+name, noShort, "turn off --"+name)
	no.NoOptDefVal = "true"
	no.Hidden = true
}

// negated is a boolean flag that stores the opposite of its value.
type negated struct{ p *bool }

func (n negated) String() string { return fmt.Sprint(!*n.p) }
func (n negated) Type() string   { return "bool" }
func (n negated) Set(s string) error {
	switch s {
	case "true":
		*n.p = false
	case "false":
		*n.p = true
	default:
		return fmt.Errorf("want true or false, not %q", s)
	}
	return nil
}
func (n negated) IsBoolFlag() bool { return true }

// validateDropIn checks the drop-in's arguments and flags before anything
// is read.
func (o *convertOptions) validateDropIn(flags *pflag.FlagSet) error {
	if len(o.Inputs) > 0 {
		return cmdutil.UsageError("unknown command %q for \"chatlint convert\" (the drop-in reads --logs DIR; give inputs with --to openai)", o.Inputs[0])
	}
	for _, name := range []string{"keep-reasoning", "split", "format", "model", "kto-negatives", "max-record-values"} {
		if flags.Changed(name) {
			return cmdutil.UsageError("--%s applies to convert --to only", name)
		}
	}
	if o.GroupBy != convert.GroupDate && o.GroupBy != convert.GroupScenario {
		return cmdutil.UsageError("--group-by: want date or scenario, not %q", o.GroupBy)
	}
	if o.SingleFile && o.GroupBy == convert.GroupScenario {
		return cmdutil.UsageError("--single-file cannot be combined with --group-by scenario")
	}
	if o.FailOn != "never" {
		var err error
		if o.failOn, err = finding.ParseSeverity(o.FailOn); err != nil || o.failOn == finding.Info {
			return cmdutil.UsageError("--fail-on: want error, warning or never, not %q", o.FailOn)
		}
	}
	return nil
}

func runConvert(cmd *cobra.Command, o *convertOptions) error {
	flags := cmd.Flags()
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	// The reference's defaults are absolute (the working folder joined with
	// proxy_logs and output), and so are the paths it prints.
	if !flags.Changed("logs") {
		o.Logs = filepath.Join(cwd, "proxy_logs")
	}
	if !flags.Changed("output") {
		o.Output = filepath.Join(cwd, "output")
	}
	o.Logs, o.Output = expandHome(o.Logs), expandHome(o.Output)
	if fi, err := os.Stat(o.Logs); err != nil || !fi.IsDir() {
		return cmdutil.UsageError("--logs: logs directory %q does not exist or is not a directory", o.Logs)
	}
	// The dataset, its reports and the spool files go into --output: a
	// folder that is the logs folder, inside it or holding it would write
	// over the logs (with --group-by scenario, every one) or be read as
	// logs by the next run. Nothing convert writes goes inside the logs,
	// the tool report included.
	if err := cmdutil.RefuseInputs([]string{o.Logs}, cmdutil.Output{Flag: "--output", Path: o.Output, Dir: true},
		cmdutil.Output{Flag: "--tool-report-path", Path: o.ToolReportPath, Dir: true}); err != nil {
		return err
	}
	failOn := o.failOn
	// --cleanup packs load as fix's --pack ones do, the packs they extend
	// included, so a pack runs the same under both commands.
	loader := config.NewPackLoader()
	for _, ref := range o.Cleanup {
		if err := loader.Add(ref); err != nil {
			return cmdutil.UsageError("--cleanup: %v", err)
		}
	}
	packs := loader.Packs()
	c := &convert.Converter{Opts: convert.Options{
		Logs: o.Logs, Output: o.Output, SingleFile: o.SingleFile, GroupBy: o.GroupBy,
		JSONToolCalls: o.JSONToolCalls, ToolReport: o.ToolReport, ToolReportPath: o.ToolReportPath,
		Integrity: o.Integrity, Anonymize: o.Anonymize, CleanupGoose: o.CleanupGoose, Cleanup: packs,
		KeepGoing: o.KeepGoing, Workers: o.Workers, Stdout: o.IO.Out, Rand: Rand,
	}}
	if o.Verbose {
		c.Opts.Verbose = o.IO.ErrOut
	}
	stop := cmdutil.ShowProgress(o.IO.ErrOut, c.Progress)
	res, err := c.Run(cmd.Context())
	stop()
	if err != nil {
		return &cmdutil.ExitCode{Code: cmdutil.ExitError, Err: err}
	}
	for _, e := range res.Unreadable {
		fmt.Fprintln(o.IO.ErrOut, "chatlint:", report.EscapeControls(runner.Describe(e)))
	}
	switch {
	case len(res.Unreadable) > 0:
		return &cmdutil.ExitCode{Code: cmdutil.ExitError}
	case res.Invalid != nil:
		return &cmdutil.ExitCode{Code: cmdutil.ExitFindings}
	case res.Records == 0 && res.Lines > 0:
		// Lines were read and nothing was written: a pipeline must not take
		// an empty dataset for a converted one.
		fmt.Fprintf(o.IO.ErrOut, "chatlint: convert: no record written from %d line(s) in %d file(s); see the report above\n", res.Lines, res.Sessions)
		return &cmdutil.ExitCode{Code: cmdutil.ExitFindings}
	case failOn == finding.Error && res.Errors > 0, failOn == finding.Warning && res.Errors+res.Warnings > 0:
		return &cmdutil.ExitCode{Code: cmdutil.ExitFindings}
	}
	return nil
}

// expandHome replaces a leading ~ with the home folder, as the reference
// does for --logs and --output.
func expandHome(p string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return p
	}
	return home + p[1:]
}
