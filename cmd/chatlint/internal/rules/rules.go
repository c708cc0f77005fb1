// Package rules is `chatlint rules` and `chatlint rules explain`: the active
// rules as text, JSON or the markdown of docs/rules.md.
package rules

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/engine/rule"
)

type rulesOptions struct {
	IO cmdutil.IOStreams

	cmdutil.PackOptions
	Outputs []string
	Profile string

	specs []cmdutil.OutputSpec // Outputs, parsed
}

// NewCmdRules returns the `chatlint rules` command writing to s.
// runF, when not nil, receives the parsed and validated options instead of
// the run (tests).
func NewCmdRules(s cmdutil.IOStreams, runF func(*rulesOptions) error) *cobra.Command {
	o := &rulesOptions{IO: s}
	o.Notes = s.ErrOut
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List the active rules: id, severity, pack, description",
		Long: `Rules lists the active rules (built-in, config and --pack packs) with the
severity the config gives them. -o markdown writes the rule reference
(docs/rules.md is generated this way); rules explain RULE shows one rule in full.
(--format, which named this output format before, still works but is
deprecated: everywhere else --format names the input format.)`,
		Example: `  chatlint rules
  chatlint rules --profile openai
  chatlint rules --pack ./team-rules
  chatlint rules -o markdown > docs/rules.md
  chatlint rules -o json | jq '.[].id'
  chatlint rules explain tool-result-missing`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if o.specs, err = cmdutil.ParseOutputs("rules", o.Outputs); err != nil {
				return cmdutil.UsageError("--output: %v", err)
			}
			if runF != nil {
				return runF(o)
			}
			return runRules(cmd, o)
		},
	}
	cmd.Flags().StringArrayVarP(&o.Outputs, "output", "o", nil, "output `FORMAT[=FILE]`: text (default), json or markdown, on stdout or to a file (repeatable)")
	// Before -o, this command's --format named its output; --format names
	// the input format everywhere else. The old spelling keeps working.
	cmd.Flags().StringArrayVar(&o.Outputs, "format", nil, "output format (deprecated: use -o)")
	_ = cmd.Flags().MarkHidden("format")
	cmdutil.AddProfileFlag(cmd, &o.Profile, "", "list only the rules that run under this profile (default, or one a pack declares)")
	cmdutil.AddPackFlags(cmd, &o.PackOptions)
	cmd.AddCommand(newExplainCmd(s, nil))
	return cmd
}

func runRules(cmd *cobra.Command, o *rulesOptions) error {
	if cmd.Flags().Changed("format") {
		fmt.Fprintln(o.IO.ErrOut, "chatlint: rules --format is deprecated: use -o (--format names the input format in the other commands)")
	}
	eng, err := o.Compile(cmd.Context())
	if err != nil {
		return err
	}
	active := cmdutil.ActiveRules(eng)
	if o.Profile != "" {
		if err := cmdutil.CheckActive(eng, o.Profile); err != nil {
			return err
		}
		// The severities check applies under the profile, then the
		// config's levels over them, as check applies them.
		active = cmdutil.UnderProfile(eng, active, o.Profile)
	}
	rules, err := o.WithFixedBy(cmd.Context(), cmdutil.Configured(active, o.LoadedConfig))
	if err != nil {
		return err
	}
	return cmdutil.WriteOutputs(o.specs, o.IO.Out, nil, func(format string, w io.Writer) error {
		switch format {
		case "json":
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(rules)
		case "markdown":
			return writeRulesMarkdown(w, rules, eng.Profiles())
		}
		return writeRulesText(w, rules)
	})
}

func writeRulesText(w io.Writer, rules []rule.Rule) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSEVERITY\tPACK\tFIXED BY\tDESCRIPTION")
	for _, r := range rules {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Severity, r.Pack, fixedByText(r), firstLine(r.Description))
	}
	return tw.Flush()
}

// fixedByText names the cleanup rules that repair a check, "-" when none.
func fixedByText(r rule.Rule) string {
	if len(r.FixedBy) == 0 {
		return "-"
	}
	return strings.Join(r.FixedBy, ", ")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
