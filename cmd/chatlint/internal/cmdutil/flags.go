package cmdutil

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/engine/document"
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
func AddWorkersFlag(cmd *cobra.Command, p *int) {
	cmd.Flags().IntVar(p, "workers", 0, "number of parallel workers (default: GOMAXPROCS)")
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
