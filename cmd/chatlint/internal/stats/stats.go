// Package stats is `chatlint stats`: records, roles, tool calls, tokens, epochs
// and cost per file.
package stats

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/report"
	"github.com/chatlint/chatlint/engine/runner"
	"github.com/chatlint/chatlint/engine/stats"
)

type statsOptions struct {
	IO cmdutil.IOStreams

	cmdutil.PackOptions
	Paths   []string
	Model   string
	Epochs  int
	Outputs []string
	Format  string
	Workers int
	// MaxRecordValues is --max-record-values.
	MaxRecordValues string

	specs     []cmdutil.OutputSpec // Outputs, parsed
	maxValues int
}

// NewCmdStats returns the `chatlint stats` command writing to s.
// runF, when not nil, receives the parsed and validated options instead of
// the run (tests).
func NewCmdStats(s cmdutil.IOStreams, runF func(*statsOptions) error) *cobra.Command {
	o := &statsOptions{IO: s}
	o.Notes = s.ErrOut
	cmd := &cobra.Command{
		Use:   "stats PATH...",
		Short: "Count records, messages, tool calls and tokens of fine-tuning data, and the cost of training on it",
		Long: `Stats reads files, directories or - (stdin) as check does and prints, per file
and in total: records, messages per role, tool calls per tool, tokens per
example (min, median, p95, max, total), examples over the model's limit, the
tokens a training run bills for N epochs and its estimated cost.

--model picks the encoding, the per-example limit and the price from the
packs' model tables (default: the table's default). --epochs sets the
epochs; without it each file gets the platform's default for its size (3,
more for fewer than 34 examples, fewer beyond 8,333). Tokens are counted as
the OpenAI cookbook counts them (docs/fine-tuning.md#tokens).

-o json prints one JSON object, documented in docs/fine-tuning.md#stats.`,
		Example: `  chatlint stats data/train.jsonl
  chatlint stats --model gpt-4.1-mini --epochs 2 data/
  chatlint stats -o json data/ | jq .total.cost_usd`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Paths = args
			if err := o.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(o)
			}
			return runStats(cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Model, "model", "", "the model: encoding, token limit and price from the packs' model tables (default: the table's default)")
	f.IntVar(&o.Epochs, "epochs", 0, "training epochs (default: the platform's choice for each file's size)")
	f.StringArrayVarP(&o.Outputs, "output", "o", nil, "output `FORMAT[=FILE]`: text (default) or json, on stdout or to a file, html=FILE for the report page with charts (repeatable)")
	cmdutil.AddFormatFlag(cmd, &o.Format, cmdutil.FormatUsage())
	cmdutil.AddWorkersFlag(cmd, &o.Workers)
	cmdutil.AddMaxRecordValuesFlag(cmd, &o.MaxRecordValues, "a record over it is not counted and is reported as record-too-dense")
	cmdutil.AddPackFlags(cmd, &o.PackOptions)
	return cmd
}

// validate checks the arguments and flags before anything is read.
func (o *statsOptions) validate() error {
	if len(o.Paths) == 0 {
		return cmdutil.UsageError("stats needs at least one file, directory or - (stdin)")
	}
	var err error
	if o.specs, err = cmdutil.ParseOutputs("stats", o.Outputs); err != nil {
		return cmdutil.UsageError("--output: %v", err)
	}
	if o.Epochs < 0 {
		return cmdutil.UsageError("--epochs: want a positive number")
	}
	o.maxValues, err = cmdutil.ParseMaxRecordValues(o.MaxRecordValues)
	return err
}

func runStats(cmd *cobra.Command, o *statsOptions) error {
	specs := o.specs
	eng, err := o.Compile(cmd.Context())
	if err != nil {
		return err
	}
	model, err := cmdutil.PickModel(eng, o.Model)
	if err != nil {
		return err
	}
	if model == nil {
		return cmdutil.UsageError("--model: no active pack has a model table")
	}
	ropts := runner.Options{Workers: o.Workers, Document: document.Options{MaxValues: o.maxValues}}
	if ropts.Format, err = cmdutil.ParseFormat(o.Format); err != nil {
		return err
	}
	inputs, errs, err := cmdutil.ExpandInputs(o.Paths, o.IO)
	if err != nil {
		return err
	}
	if err := cmdutil.RefuseInputs(cmdutil.InputNames(inputs), cmdutil.SpecOutputs(specs)...); err != nil {
		return err
	}
	r := &runner.Runner{Opts: ropts}
	stop := cmdutil.ShowProgress(o.IO.ErrOut, r.Progress)
	res, rerrs, err := stats.Compute(cmd.Context(), r, inputs, stats.Options{Model: model, Epochs: o.Epochs})
	stop()
	if err != nil {
		return err
	}
	err = cmdutil.WriteOutputs(specs, o.IO.Out, cmdutil.InputNames(inputs), func(format string, w io.Writer) error {
		switch format {
		case "json":
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(res)
		case "html":
			return writeStatsPage(w, inputs, res)
		}
		return writeStatsText(w, res)
	})
	if err != nil {
		return err
	}
	errs = append(errs, rerrs...)
	// A file no format claims was not counted: say so as check does, and
	// do not let a zero row pass for a count.
	unrecognized := 0
	for _, f := range res.Files {
		if u := f.Unrecognized; u != nil {
			unrecognized++
			fmt.Fprintf(o.IO.ErrOut, "%s:%d: %s %s: %s\n", report.EscapeControls(u.File), u.Line, u.Severity, u.Rule, report.Clean(u.Message))
		}
	}
	// A record over --max-record-values was not counted: said as check
	// says it.
	dense := 0
	for _, f := range res.Files {
		for _, d := range f.TooDense {
			dense++
			fmt.Fprintf(o.IO.ErrOut, "%s:%d: %s %s: %s\n", report.EscapeControls(d.File), d.Line, d.Severity, d.Rule, report.Clean(d.Message))
		}
	}
	for _, err := range errs {
		fmt.Fprintln(o.IO.ErrOut, "chatlint:", report.EscapeControls(runner.Describe(err)))
	}
	switch {
	case len(errs) > 0:
		return &cmdutil.ExitCode{Code: cmdutil.ExitError}
	case unrecognized > 0 || dense > 0:
		return &cmdutil.ExitCode{Code: cmdutil.ExitFindings}
	}
	return nil
}

func writeStatsText(w io.Writer, res *stats.Result) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "model %s (%s): at most %s tokens per example, $%.2f per 1M training tokens\n\n",
		res.Model, res.Encoding, thousands(int64(res.Limit)), res.PricePerMillion)
	fmt.Fprintln(tw, "records\tmin\tmedian\tp95\tmax\ttokens\tover limit\tepochs\tbilled tokens\tcost\t\tfile")
	rows := append(slices.Clone(res.Files), res.Total)
	for i, f := range rows {
		name, epochs := report.EscapeControls(f.File), fmt.Sprint(f.Epochs)
		if i == len(rows)-1 {
			name = "total"
			if f.Epochs == 0 {
				epochs = "-"
			}
		}
		if f.Unrecognized != nil {
			name += " (unrecognized format: not counted)"
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%s\t%d\t%s\t%s\t$%.2f\t\t%s\n", f.Records, f.Tokens.Min, f.Tokens.Median, f.Tokens.P95,
			f.Tokens.Max, thousands(f.Tokens.Total), f.OverLimit, epochs, thousands(f.BilledTokens), f.Cost, name)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	t := res.Total
	fmt.Fprintf(w, "\nmessages: %s\n", counts(t.Messages))
	if len(t.ToolCalls) > 0 {
		fmt.Fprintf(w, "tool calls: %s\n", counts(t.ToolCalls))
	}
	if len(t.Kinds) > 1 || (len(t.Kinds) == 1 && t.Kinds["chat"] == 0) {
		fmt.Fprintf(w, "examples: %s\n", counts(t.Kinds))
	}
	if t.Kinds["kto-undesirable"] > 0 {
		fmt.Fprintf(w, "kto-undesirable examples hold answers to avoid: convert --to openai writes none of them (--kto-negatives)\n")
	}
	if t.Untrained > 0 {
		fmt.Fprintf(w, "untrained: %d assistant messages with weight 0 (counted in the tokens, as they are billed)\n", t.Untrained)
	}
	if t.Images > 0 {
		fmt.Fprintf(w, "images: %d (not counted in the tokens)\n", t.Images)
	}
	if t.Skipped > 0 {
		fmt.Fprintf(w, "skipped: %d lines that are not records (see chatlint check)\n", t.Skipped)
	}
	return nil
}

// counts lists a tally by count, then name.
func counts(m map[string]int) string {
	sorted := sortedCounts(m)
	parts := make([]string, len(sorted))
	for i, c := range sorted {
		name := c.Name
		if name == "" {
			name = "<none>"
		}
		parts[i] = fmt.Sprintf("%s %d", report.EscapeControls(name), c.Count)
	}
	return strings.Join(parts, ", ")
}

// thousands writes n with thousands separators.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 || len(s) <= 3 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// writeStatsPage writes the HTML report of a stats run: the summary and the
// statistics section (a histogram of tokens per example with the model's
// limit, messages per role, tool calls per tool), no findings.
func writeStatsPage(w io.Writer, inputs []runner.Input, res *stats.Result) error {
	page, err := report.NewWith("html", w, report.Options{Files: cmdutil.InputNames(inputs), FailOn: report.NoFailure, Version: cmdutil.Version()})
	if err != nil {
		return err
	}
	page.(report.StatsReceiver).SetStats(statsSection(res))
	sum := finding.Summary{Files: len(res.Files), Records: res.Total.Records}
	for _, f := range res.Files {
		sum.Inputs = append(sum.Inputs, finding.Input{File: f.File, Format: f.Format, Records: f.Records})
	}
	return page.Close(sum)
}

// statsSection is the report page's view of a stats result.
func statsSection(res *stats.Result) *report.Stats {
	t := res.Total
	st := &report.Stats{Examples: t.Records, Tokenizer: res.Encoding, Model: res.Model, TokenLimit: res.Limit,
		OverLimit: t.OverLimit, Min: t.Tokens.Min, Median: t.Tokens.Median, P95: t.Tokens.P95, Max: t.Tokens.Max,
		Roles: sortedCounts(t.Messages), Tools: sortedCounts(t.ToolCalls)}
	for _, b := range res.Histogram {
		st.Tokens = append(st.Tokens, report.Bucket{Lo: b.Lo, Hi: b.Hi, Count: b.Count})
	}
	return st
}

// sortedCounts lists a tally most first, then by name.
func sortedCounts(m map[string]int) []report.Count {
	out := make([]report.Count, 0, len(m))
	for k, n := range m {
		out = append(out, report.Count{Name: k, Count: n})
	}
	slices.SortFunc(out, func(a, b report.Count) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}
