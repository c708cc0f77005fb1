// Package fix is `chatlint fix`: cleanup packs over the inputs, each file written
// back in its own layout with its rejects beside it.
package fix

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/fix"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/report"
	"github.com/chatlint/chatlint/engine/runner"
	"github.com/chatlint/chatlint/engine/setup"
)

type fixOptions struct {
	IO cmdutil.IOStreams

	Paths     []string
	Packs     []string // builtin:NAME or a folder; empty: the default pack per format
	Disable   []string
	Timeout   time.Duration
	Output    string
	InPlace   bool
	DryRun    bool
	Format    string
	ToolCalls string
	Workers   int
	MaxPasses int
	MaxLine   string
	// IgnoreWriters replaces a file even while another process holds it
	// open for writing.
	IgnoreWriters bool
	// MaxRecordValues is --max-record-values.
	MaxRecordValues string

	maxLine   int             // MaxLine, parsed
	maxValues int             // MaxRecordValues, parsed
	format    document.Format // Format, parsed
}

// NewCmdFix returns the `chatlint fix` command writing to s.
// runF, when not nil, receives the parsed options instead of the run (tests).
func NewCmdFix(s cmdutil.IOStreams, runF func(*fixOptions) error) *cobra.Command {
	o := &fixOptions{IO: s}
	cmd := &cobra.Command{
		Use:   "fix PATH...",
		Short: "Apply cleanup packs to conversations and write the result, keeping what is dropped",
		Long: `Fix runs cleanup packs over each conversation and writes the result.

A cleanup rule decides what to change (drop a message or a tool call, set a
content, insert or move a message, rename a tool-call id, drop a record or a
session entry); fix applies it, builds the conversation again and repeats until
no rule asks for more (at most --max-passes times).

Without --pack, each file gets the built-in cleanup packs its format names
(docs/fix.md lists them); a format fix cannot rewrite gets none.

Records no rule changes are written byte for byte; a changed record keeps its
other fields and their order. Everything dropped is appended to
<output>.rejects.jsonl with its source file, line, record id, rule and reason.

A line that is JSON but not an object goes to the rejects file too. A file
whose records fit no known format is not fixed: nothing is written for it,
nor for a file with a line longer than --max-line-size (fix cannot keep a
line it did not read: raise the limit to fix that file). A record that
would build more values than --max-record-values is written back byte for
byte with a record-too-dense note (exit 1), and the rest of its file is
fixed; a session holding such a line is written back whole.
A record whose pieces the pack cannot read (parts keyed value, a tools
field that is a JSON string) is left as it was, with a note. A .json array
is written as JSON Lines, or as an array again to a .json file.

Exit status: 0 when every record was fixed (or needed nothing), 1 when some
record was left as it was because its actions conflict or never settle, or
a rule asked to keep it, 2 for usage, configuration, policy or input errors
and files of no known format.`,
		Example: `  chatlint fix -o clean.jsonl data/train.jsonl
  chatlint fix --in-place sessions/
  chatlint fix --dry-run --pack builtin:transcript data/train.jsonl
  chatlint fix --pack ./team-cleanup -o out/ data/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Paths = args
			if err := o.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(o)
			}
			return runFix(cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&o.Packs, "pack", nil, "cleanup pack to run: builtin:NAME or a folder (repeatable; default: the built-in pack for each file's format)")
	cmdutil.AddDisableFlag(cmd, &o.Disable)
	cmdutil.AddRuleTimeoutFlag(cmd, &o.Timeout, policy.DefaultRuleTimeout, "time limit for evaluating the rules on one conversation or session, per 1,000 of its messages or entries, tool calls and content parts counted, per pass")
	f.StringVarP(&o.Output, "output", "o", "", "write to this file; for several inputs, to this folder (an existing one, or a path ending in / to create)")
	f.BoolVar(&o.InPlace, "in-place", false, "replace each input (after a backup FILE.bak-<UTC time>-<random>)")
	f.BoolVar(&o.IgnoreWriters, "ignore-writers", false, "with --in-place: replace a file even while another process has it open for writing (what it writes afterwards is lost)")
	f.BoolVar(&o.DryRun, "dry-run", false, "write nothing; print each changed record before (-) and after (+) as JSON lines, and the rules that fired")
	cmdutil.AddFormatFlag(cmd, &o.Format, cmdutil.FormatUsage())
	f.StringVar(&o.ToolCalls, "tool-calls", "", "force the tool-call representation: inline or structured (default: detect per record)")
	cmdutil.AddWorkersFlag(cmd, &o.Workers)
	f.IntVar(&o.MaxPasses, "max-passes", fix.DefaultMaxPasses, "most passes over one record before fix gives up on it")
	f.StringVar(&o.MaxLine, "max-line-size", "64MiB", "longest line read; a file with a longer line is not written (bytes, or with KiB, MiB, GiB)")
	cmdutil.AddMaxRecordValuesFlag(cmd, &o.MaxRecordValues, "a record over it is written back as it is, with a record-too-dense note")
	return cmd
}

// validate checks the arguments and flags before any pack or file is read.
func (o *fixOptions) validate() error {
	if len(o.Paths) == 0 {
		return cmdutil.UsageError("fix needs at least one file or directory")
	}
	modes := 0
	for _, set := range []bool{o.Output != "", o.InPlace, o.DryRun} {
		if set {
			modes++
		}
	}
	if modes != 1 {
		return cmdutil.UsageError("fix needs exactly one of -o OUT, --in-place or --dry-run")
	}
	var err error
	if o.maxLine, err = setup.ParseSize(o.MaxLine); err != nil {
		return cmdutil.UsageError("--max-line-size: %v", err)
	}
	if o.format, err = cmdutil.ParseFormat(o.Format); err != nil {
		return err
	}
	if o.maxValues, err = cmdutil.ParseMaxRecordValues(o.MaxRecordValues); err != nil {
		return err
	}
	if err := document.CheckToolCalls(o.ToolCalls); err != nil {
		return cmdutil.UsageError("--tool-calls: %v", err)
	}
	if o.MaxPasses < 1 {
		return cmdutil.UsageError("--max-passes: want at least 1")
	}
	if o.IgnoreWriters && !o.InPlace {
		return cmdutil.UsageError("--ignore-writers applies to --in-place only")
	}
	return nil
}

func runFix(cmd *cobra.Command, o *fixOptions) error {
	ropts := runner.Options{Workers: o.Workers, MaxLineSize: o.maxLine, Format: o.format, Document: docOptions(o)}
	engines, err := o.compile(cmd)
	if err != nil {
		return err
	}

	// A Parquet file a folder walk finds is left as it is, with a note; one
	// named on the command line refuses the run (nothing written).
	files, skipped, errs := jsonl.ExpandFunc(o.Paths, cmdutil.IsInputFile)
	cmdutil.NoteSkipped(o.IO.ErrOut, skipped)
	files = cmdutil.LeaveWalkedParquet("fix", o.Paths, files, o.IO.ErrOut)
	if err := cmdutil.RefuseParquet("fix", files); err != nil {
		return err
	}
	var inputs []runner.Input
	outputs := map[string]string{}
	// -o names a folder for several inputs, a folder given as input, or an
	// existing folder (or one spelled with a final slash).
	several := len(files) > 1 || strings.HasSuffix(o.Output, "/")
	for _, p := range o.Paths {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			several = true
		}
	}
	if fi, err := os.Stat(o.Output); err == nil {
		switch {
		case fi.IsDir():
			several = true
		case several:
			return cmdutil.UsageError("-o %s: several inputs are written to a folder, and this is a file", o.Output)
		}
	} else if several && o.Output != "" && !strings.HasSuffix(o.Output, "/") {
		// Never make a folder of a name like out.jsonl: a folder output
		// exists already or is spelled with a final slash.
		return cmdutil.UsageError("-o %s: several inputs are written to a folder; name an existing folder, or end the path with / to create it", o.Output)
	}
	for _, f := range files {
		switch {
		case f == jsonl.Stdin && (o.InPlace || several):
			errs = append(errs, fmt.Errorf("-: standard input can only be fixed to one -o FILE or with --dry-run"))
			continue
		}
		in := runner.Input{Name: f, Path: f}
		if f == jsonl.Stdin {
			in = runner.Input{Name: "<stdin>", Reader: o.IO.In}
		}
		switch {
		case o.InPlace:
			outputs[in.Name] = f
		case o.Output != "" && several:
			outputs[in.Name] = filepath.Join(o.Output, outsideRelative(f))
		case o.Output != "":
			outputs[in.Name] = o.Output
		}
		inputs = append(inputs, in)
	}
	if o.Output != "" {
		names := make([]string, len(inputs))
		for i, in := range inputs {
			names[i] = in.Name
		}
		if err := checkOutputs(o.Paths, names, outputs); err != nil {
			return err
		}
	}
	r := &runner.Runner{Opts: ropts}
	fx := &fixer{ctx: cmd.Context(), s: o.IO, o: o, engines: engines, outputs: outputs}
	if o.InPlace {
		fx.before = statInputs(files) // before the runner reads a byte
	}
	stop := cmdutil.ShowProgress(o.IO.ErrOut, r.Progress)
	tot, rerrs := runner.Each(cmd.Context(), r, inputs, fx.newWork, fx.emit)
	stop()
	fx.finish()
	fx.summary(tot)
	errs = append(errs, rerrs...)
	errs = append(errs, fx.errs...)
	for _, err := range errs {
		fmt.Fprintln(o.IO.ErrOut, "chatlint:", report.EscapeControls(runner.Describe(err)))
	}
	switch {
	case len(errs) > 0 || fx.policyFailed:
		return &cmdutil.ExitCode{Code: cmdutil.ExitError}
	case fx.unfixed > 0:
		return &cmdutil.ExitCode{Code: cmdutil.ExitFindings}
	}
	return nil
}

// outsideRelative turns an input path into a path under the output folder:
// relative paths as given, absolute ones without their root.
func outsideRelative(p string) string {
	p = filepath.Clean(p)
	if filepath.IsAbs(p) {
		p = strings.TrimPrefix(p, filepath.VolumeName(p))
		p = strings.TrimLeft(p, string(filepath.Separator))
	}
	return strings.ReplaceAll(p, ".."+string(filepath.Separator), "__"+string(filepath.Separator))
}
