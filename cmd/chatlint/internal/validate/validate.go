// Package validate is `chatlint validate-input`, the contract validator's drop-in.
package validate

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/engine/atomicfile"
	"github.com/chatlint/chatlint/engine/contract"
	"github.com/chatlint/chatlint/engine/runner"
	"github.com/chatlint/chatlint/engine/setup"
)

type validateInputOptions struct {
	IO cmdutil.IOStreams

	Input        string
	ReportJSON   string
	MaxErrors    int
	MessagesOnly string
	Workers      int
	MaxLine      string
	// MaxRecordValues is --max-record-values.
	MaxRecordValues string

	maxLine   int                  // MaxLine, parsed
	maxValues int                  // MaxRecordValues, parsed
	reports   []cmdutil.OutputSpec // ReportJSON as an output
}

// NewCmdValidateInput returns the `chatlint validate-input` command writing to s.
// runF, when not nil, receives the parsed and validated options instead of
// the run (tests).
func NewCmdValidateInput(s cmdutil.IOStreams, runF func(*validateInputOptions) error) *cobra.Command {
	o := &validateInputOptions{IO: s}
	cmd := &cobra.Command{
		Use:   "validate-input --input FILE|-",
		Short: "Validate a conversation-record file against the input contract, with the contract validator's report",
		Long: `validate-input checks that every non-empty line of a JSONL file is one
conversation record of the input contract (conversation_id, user_id,
timestamp, messages, optional metadata) and that conversation ids are unique.
It prints a summary and, with --report-json, writes the contract validator's
JSON report (same keys, layout and codes: invalid_json, non_object_line,
schema_validation_failed, duplicate_conversation_id, empty_dataset; and
chatlint's own line_too_long for a line over --max-line-size and
record_too_dense for a line that would build more values than
--max-record-values, neither of them held in memory).

Exit status: 0 when the file is valid, 1 when it is not (an empty file is
not valid), 2 for usage errors and an input that cannot be read.`,
		Example: `  chatlint validate-input --input conversations.jsonl
  chatlint validate-input --input conversations.jsonl --report-json /tmp/validation_report.json
  chatlint validate-input --input - --max-errors 0 --write-messages-only conversation.jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(o)
			}
			return runValidateInput(cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Input, "input", "", "the JSONL file to validate, or - for standard input")
	f.StringVar(&o.ReportJSON, "report-json", "", "write the JSON report to this file (whether or not validation passes)")
	f.IntVar(&o.MaxErrors, "max-errors", 100, "how many errors the report lists; the others are only counted")
	f.StringVar(&o.MessagesOnly, "write-messages-only", "", "also write the valid records, reduced to conversation_id and messages, to this file")
	cmdutil.AddWorkersFlag(cmd, &o.Workers)
	f.StringVar(&o.MaxLine, "max-line-size", "64MiB", "longest line read; a longer one is a line_too_long error, not held in memory (bytes, or with KiB, MiB, GiB)")
	cmdutil.AddMaxRecordValuesFlag(cmd, &o.MaxRecordValues, "a line over it is a record_too_dense error, not validated")
	return cmd
}

// validate checks the flags before anything is read.
func (o *validateInputOptions) validate() error {
	if o.Input == "" {
		return cmdutil.UsageError("validate-input needs --input FILE (or --input - for standard input)")
	}
	if o.MaxErrors < 0 {
		return cmdutil.UsageError("--max-errors must be >= 0, got %d", o.MaxErrors)
	}
	var err error
	if o.maxLine, err = setup.ParseSize(o.MaxLine); err != nil {
		return cmdutil.UsageError("--max-line-size: %v", err)
	}
	if o.maxValues, err = cmdutil.ParseMaxRecordValues(o.MaxRecordValues); err != nil {
		return err
	}
	if o.ReportJSON != "" {
		// --report-json FILE is the contract validator's spelling of -o
		// json=FILE. The validator writes even "-" as a file name, and so
		// does this drop-in (-o would read it as standard output).
		file := o.ReportJSON
		if file == "-" {
			file = "./-"
		}
		if o.reports, err = cmdutil.ParseOutputs("validate-input", []string{"json=" + file}); err != nil {
			return cmdutil.UsageError("--report-json: %v", err)
		}
		o.reports[0].Flag = "--report-json"
	}
	return nil
}

func runValidateInput(cmd *cobra.Command, o *validateInputOptions) error {
	maxLine, maxValues, reports := o.maxLine, o.maxValues, o.reports
	if err := cmdutil.RefuseInputs([]string{o.Input},
		append([]cmdutil.Output{{Flag: "--write-messages-only", Path: o.MessagesOnly}}, cmdutil.SpecOutputs(reports)...)...); err != nil {
		return err
	}
	in, closeIn, err := openInput(o.Input, o.IO.In)
	if err != nil {
		return &cmdutil.ExitCode{Code: cmdutil.ExitError, Err: err}
	}
	defer closeIn()
	eng, err := contract.NewEngine(cmd.Context())
	if err != nil {
		return err
	}
	progress := &contract.Progress{}
	opts := contract.Options{InputPath: o.Input, MaxErrors: o.MaxErrors, Workers: o.Workers, Progress: progress, MaxLineSize: maxLine, MaxValues: maxValues}
	var rep *contract.Report
	validate := func() error {
		stop := cmdutil.ShowProgress(o.IO.ErrOut, progress.Read)
		rep, err = eng.Validate(cmd.Context(), in, opts)
		stop()
		return err // it names the input
	}
	if o.MessagesOnly != "" {
		// The snapshot replaces its file only once the whole input was read.
		err = atomicfile.Write(o.MessagesOnly, 0o644, func(w io.Writer) error {
			bw := bufio.NewWriterSize(w, 1<<20)
			opts.Snapshot = bw
			if err := validate(); err != nil {
				return err
			}
			return bw.Flush()
		})
	} else {
		err = validate()
	}
	if err != nil {
		return &cmdutil.ExitCode{Code: cmdutil.ExitError, Err: err}
	}
	err = cmdutil.WriteOutputs(reports, o.IO.Out, []string{o.Input}, func(_ string, w io.Writer) error { return rep.WriteJSON(w) })
	if err != nil {
		return &cmdutil.ExitCode{Code: cmdutil.ExitError, Err: err}
	}
	if err := rep.WriteText(o.IO.Out, o.ReportJSON); err != nil {
		return err
	}
	if !rep.IsValid {
		return &cmdutil.ExitCode{Code: cmdutil.ExitFindings}
	}
	return nil
}

// openInput opens the file to validate; "-" is standard input. A folder is
// refused up front: reading it would fail only after the report was begun.
func openInput(name string, stdin io.Reader) (io.Reader, func(), error) {
	if name == "-" {
		return stdin, func() {}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, fmt.Errorf("%s", runner.Describe(err))
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is a directory, not a file", name)
	}
	return f, func() { f.Close() }, nil
}
