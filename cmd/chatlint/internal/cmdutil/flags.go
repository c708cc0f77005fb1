package cmdutil

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/runner"
	"github.com/chatlint/chatlint/engine/setup"
)

// The flags below are declared here once so that each means one thing in
// every command: --format is always the input format (rules' output
// format is -o; its old --format stays hidden), --workers the size of the
// worker pool, --profile the rule profile (the CPU profile is the
// CHATLINT_CPUPROFILE variable). The pack flags are in packs.go, -o's
// report specs in outputs.go.

// FormatUsage is --format's help where the command has nothing to add.
func FormatUsage() string {
	return "force the input format: " + document.FormatNames() + " (default: detect per file)"
}

// AddFormatFlag adds --format, the input format, with usage as its help
// (FormatUsage() unless the command says what forcing a format does there).
// Read the value with ParseFormat.
func AddFormatFlag(cmd *cobra.Command, p *string, usage string) {
	cmd.Flags().StringVar(p, "format", "", usage)
}

// ParseFormat reads --format: "" is detection per file (the zero Format),
// an unknown name a usage error that lists the known ones.
func ParseFormat(name string) (document.Format, error) {
	if name == "" {
		return "", nil
	}
	f, ok := document.ParseFormat(name)
	if !ok {
		return "", UsageError("--format: unknown input format %q (want %s)", name, document.FormatNames())
	}
	return f, nil
}

// AddWorkersFlag adds --workers, the number of records read in parallel.
// A number above runner.MaxWorkers is lowered to it, with a note on
// stderr: workers are CPU-bound, so more of them than that only cost
// memory (each has its own evaluators and in-flight budget; --workers
// 1000000 on a 4 KB file took 5.8 GB).
func AddWorkersFlag(cmd *cobra.Command, p *int) {
	cmd.Flags().Var(&workersValue{p: p, cmd: cmd}, "workers", "number of parallel workers (default: GOMAXPROCS; at most 4 per core)")
}

type workersValue struct {
	p   *int
	cmd *cobra.Command
}

func (w *workersValue) String() string { return strconv.Itoa(*w.p) }
func (w *workersValue) Type() string   { return "int" }
func (w *workersValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("want a whole number, not %q", s)
	}
	if max := runner.MaxWorkers(); n > max {
		fmt.Fprintf(w.cmd.ErrOrStderr(), "chatlint: note: --workers %d lowered to %d (4 per core): more workers than that only cost memory\n", n, max)
		n = max
	}
	*w.p = n
	return nil
}

// AddProfileFlag adds --profile, the rule profile, with the command's
// default and help (check runs under one; rules lists one's rules).
func AddProfileFlag(cmd *cobra.Command, p *string, def, usage string) {
	cmd.Flags().StringVar(p, "profile", def, usage)
}

// FormatHelp lists the input formats, one per line, for --help.
func FormatHelp() string {
	var b strings.Builder
	for _, a := range document.Adapters() {
		fmt.Fprintf(&b, "  %-14s %s\n", a.Format, a.Summary)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// AddMaxRecordValuesFlag adds --max-record-values, the bound on the values
// one record builds (astjson.DecodeMax), read by ParseMaxRecordValues; over
// it says what the command does with a record over the bound.
func AddMaxRecordValuesFlag(cmd *cobra.Command, p *string, over string) {
	cmd.Flags().StringVar(p, "max-record-values", strconv.Itoa(astjson.DefaultMaxValues),
		"most values (member values and list elements, at any depth) one record may build, twice as many for a record of 48 bytes or more a value; "+over)
}

// ParseMaxRecordValues reads --max-record-values.
func ParseMaxRecordValues(s string) (int, error) {
	n, err := setup.ParseCount(s)
	if err != nil {
		return 0, UsageError("--max-record-values: %v", err)
	}
	return n, nil
}
