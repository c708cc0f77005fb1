package convert

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/engine/atomicfile"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/openai"
	"github.com/chatlint/chatlint/engine/report"
	"github.com/chatlint/chatlint/engine/runner"
	"github.com/chatlint/chatlint/engine/spill"
)

// Rules of convert --to's notes, in the output convention of check.
const (
	ruleConvertLossy     = "convert-lossy"      // a piece of a document was left out or changed
	ruleConvertNoExample = "convert-no-example" // a document gave no example
)

// convertTargets are the formats convert --to writes.
var convertTargets = []string{"openai"}

// dropInFlags are the flags of the drop-in converter, which --to does not take.
var dropInFlags = []string{"logs", "single-file", "group-by", "json-tool-calls", "no-json-tool-calls", "tool-report", "no-tool-report",
	"tool-report-path", "integrity-analysis", "no-integrity-analysis", "anonymize", "no-anonymize", "cleanup-goose", "no-cleanup-goose",
	"keep-going", "cleanup", "fail-on", "verbose"}

// convertedJob is what one unit of input gives: its examples, encoded, and
// its notes, as output lines.
type convertedJob struct {
	// out holds the examples, one a line, until they are written: in
	// memory up to a bound, then in a temporary file, so that a session
	// split into turns (an example per assistant message, each the
	// conversation so far) is not held whole. nil when there is none.
	out       *spill.Buffer
	notes     []string
	docs, exs int
	errors    int
}

// validateTo checks convert --to's arguments and flags before anything is
// read.
func (o *convertOptions) validateTo(flags *pflag.FlagSet) error {
	if !strings.EqualFold(o.To, "openai") {
		return cmdutil.UsageError("--to: want %s, not %q", strings.Join(convertTargets, " or "), o.To)
	}
	for _, name := range dropInFlags {
		if flags.Changed(name) {
			return cmdutil.UsageError("--%s is a flag of the proxy-log drop-in (convert -l DIR -o DIR), not of --to", name)
		}
	}
	if len(o.Inputs) == 0 {
		return cmdutil.UsageError("convert --to needs at least one file, directory or - (stdin)")
	}
	if o.KTONegatives != openai.KTOSkip && o.KTONegatives != openai.KTOError {
		return cmdutil.UsageError("--kto-negatives: want %s or %s, not %q", openai.KTOSkip, openai.KTOError, o.KTONegatives)
	}
	if o.Split != "" && o.Split != "turns" {
		return cmdutil.UsageError("--split: want turns, not %q", o.Split)
	}
	var err error
	if o.maxValues, err = cmdutil.ParseMaxRecordValues(o.MaxRecordValues); err != nil {
		return err
	}
	o.format, err = cmdutil.ParseFormat(o.Format)
	return err
}

// runConvertTo runs convert --to: every input read as check reads it (the
// runner and the format adapters), each document turned into examples of
// the target format, written atomically to --output (standard output
// without it), notes on standard error.
func runConvertTo(cmd *cobra.Command, o *convertOptions) error {
	flags, args := cmd.Flags(), o.Inputs
	ropts := runner.Options{Workers: o.Workers, Format: o.format, Document: document.Options{MaxValues: o.maxValues}}
	out := "-"
	if flags.Changed("output") {
		out = o.Output
	}
	inputs, errs, err := cmdutil.ExpandInputs(args, o.IO)
	if err != nil {
		return err
	}
	if err := cmdutil.RefuseInputs(cmdutil.InputNames(inputs), cmdutil.Output{Flag: "-o", Path: out}); err != nil {
		return err
	}

	var w io.Writer
	var af *atomicfile.File
	if out == "-" {
		bw := bufio.NewWriter(o.IO.Out)
		defer bw.Flush()
		w = bw
	} else {
		var err error
		if af, err = atomicfile.Create(out, 0o644); err != nil {
			return &cmdutil.ExitCode{Code: cmdutil.ExitError, Err: err}
		}
		defer af.Abort() // after Commit, a no-op
		w = af
	}

	model, err := convertModel(o.Model)
	if err != nil {
		return err
	}
	copts := openai.Options{KeepReasoning: o.KeepReasoning, SplitTurns: o.Split == "turns", Model: model, KTONegatives: o.KTONegatives}
	outputs, inputs, err := splitBatchOutputs(inputs, o.format, o.maxValues)
	if err != nil {
		return err
	}
	r := &runner.Runner{Opts: ropts}
	var total convertedJob
	notes := 0 // the notes are printed as they come, and only counted
	var werr error
	collect := func(c convertedJob) {
		for _, n := range c.notes {
			fmt.Fprintln(o.IO.ErrOut, n)
		}
		if c.out != nil {
			if _, err := c.out.WriteTo(w); err != nil && werr == nil {
				werr = err
			}
			c.out.Release()
		}
		total.docs += c.docs
		total.exs += c.exs
		total.errors += c.errors
		notes += len(c.notes)
	}
	if len(outputs) > 0 {
		answers, aerrs := readAnswers(cmd.Context(), r, outputs, collect)
		errs = append(errs, aerrs...)
		copts.Answers = answers
	}
	tot, rerrs := runner.Each(cmd.Context(), r, inputs, func() func(runner.Job) convertedJob {
		return func(j runner.Job) convertedJob { return convertJob(j, copts, ropts.Document) }
	}, collect)
	if copts.Answers != nil {
		collect(unusedAnswers(copts.Answers))
	}
	if werr != nil {
		return &cmdutil.ExitCode{Code: cmdutil.ExitError, Err: werr}
	}
	errs = append(errs, rerrs...)
	if af != nil {
		if err := af.Commit(); err != nil {
			return &cmdutil.ExitCode{Code: cmdutil.ExitError, Err: err}
		}
	}
	where := "standard output"
	if out != "-" {
		where = out
	}
	fmt.Fprintf(o.IO.ErrOut, "converted %d document(s) of %d file(s) into %d %s example(s), written to %s; %d note(s)\n",
		total.docs, tot.Files, total.exs, strings.ToLower(o.To), report.EscapeControls(where), notes)
	for _, err := range errs {
		fmt.Fprintln(o.IO.ErrOut, "chatlint:", report.EscapeControls(runner.Describe(err)))
	}
	switch {
	case len(errs) > 0:
		return &cmdutil.ExitCode{Code: cmdutil.ExitError}
	case total.errors > 0:
		return &cmdutil.ExitCode{Code: cmdutil.ExitFindings}
	case total.exs == 0 && tot.Records > 0:
		fmt.Fprintf(o.IO.ErrOut, "chatlint: convert: no example written from %d record(s)\n", tot.Records)
		return &cmdutil.ExitCode{Code: cmdutil.ExitFindings}
	}
	return nil
}

// convertJob turns one unit of input into its examples and notes; docs
// are the options its records are read with (their bound on values).
func convertJob(j runner.Job, opts openai.Options, docs document.Options) convertedJob {
	var c convertedJob
	if j.Finding != nil {
		c.add(*j.Finding)
		return c
	}
	for _, r := range j.Unit.Records {
		if n, first := openai.LoneSurrogates(r.Data); n > 0 {
			c.add(finding.Finding{File: j.Unit.File, Line: r.Line, Severity: finding.Warning, Rule: ruleConvertLossy,
				Message: fmt.Sprintf("%d lone surrogate escape(s) (the first %s) replaced with U+FFFD: no UTF-8 text can hold half a UTF-16 pair", n, first)})
		}
	}
	// A session's lines are read no more once decoded (a per-record
	// document's record is: it is handed to the function below).
	j.Unit.Release = true
	docs = openai.ReadOptions(j.Unit.Format, docs)
	var enc *json.Encoder
	bad := lint.Documents(j.Unit, docs, func(d *document.Document, rec *jsonl.Record) {
		c.docs++
		if openai.AsIs(d.Format) && rec != nil {
			// Already an OpenAI fine-tuning example (DPO): written byte
			// for byte.
			c.write(rec.Data, []byte{'\n'})
			c.exs++
			return
		}
		// The document is read no more once Convert has its messages: a
		// long session's lines may go while its example is counted.
		file, line := d.File, d.Line
		exs, notes := openai.Convert(d, opts)
		for _, n := range notes {
			f := finding.Finding{File: file, Line: n.Line, Severity: finding.Warning, Rule: ruleConvertLossy, Message: n.Message}
			if n.Error {
				f.Severity, f.Rule = finding.Error, ruleConvertNoExample
			}
			c.add(f)
		}
		for _, ex := range exs {
			if enc == nil {
				c.write()
				enc = json.NewEncoder(c.out)
				enc.SetEscapeHTML(false)
			}
			// Encode writes the example only once it is encoded whole.
			if err := enc.Encode(ex); err != nil {
				if c.out.Err() == nil { // a write error ends the run (collect)
					c.add(finding.Finding{File: file, Line: line, Severity: finding.Error, Rule: ruleConvertNoExample, Message: "the example could not be encoded: " + err.Error()})
				}
				continue
			}
			c.exs++
		}
	})
	for _, f := range bad {
		c.add(f)
	}
	return c
}

// write appends bs to the job's examples (out, made at the first).
func (c *convertedJob) write(bs ...[]byte) {
	if c.out == nil {
		c.out = &spill.Buffer{Pattern: "chatlint-convert-*.tmp"}
	}
	for _, b := range bs {
		c.out.Write(b) // an error is kept, and collect reports it
	}
}

func (c *convertedJob) add(f finding.Finding) {
	if f.Severity == finding.Error {
		c.errors++
	}
	c.notes = append(c.notes, fmt.Sprintf("%s:%d: %s %s: %s", report.EscapeControls(f.File), f.Line, f.Severity, f.Rule, report.Clean(f.Message)))
}
