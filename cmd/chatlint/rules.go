package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/engine/rule"
)

type rulesOptions struct {
	packOptions
	Format  string
	Profile string
}

func newRulesCmd(s streams) *cobra.Command {
	o := &rulesOptions{}
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List the active rules: id, severity, pack, description",
		Long: `Rules lists the active rules (built-in, config and --pack packs) with the
severity the config gives them. --format markdown writes the rule reference
(docs/rules.md is generated this way); rules explain RULE shows one rule in full.`,
		Example: `  chatlint rules
  chatlint rules --profile openai
  chatlint rules --pack ./team-rules
  chatlint rules --format markdown > docs/rules.md
  chatlint rules --format json | jq '.[].id'
  chatlint rules explain tool-result-missing`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runRules(cmd, s, o)
		},
	}
	cmd.Flags().StringVar(&o.Format, "format", "text", "output format: text, json or markdown")
	cmd.Flags().StringVar(&o.Profile, "profile", "", "list only the rules that run under this profile (default, or one a pack declares)")
	addPackFlags(cmd, &o.packOptions)
	cmd.AddCommand(newExplainCmd(s))
	return cmd
}

func runRules(cmd *cobra.Command, s streams, o *rulesOptions) error {
	eng, err := o.compile(cmd.Context())
	if err != nil {
		return err
	}
	rules, err := o.withFixedBy(cmd.Context(), configured(activeRules(eng), o.cfg))
	if err != nil {
		return err
	}
	if o.Profile != "" {
		if err := checkActive(eng, o.Profile); err != nil {
			return err
		}
		rules = underProfile(rules, o.Profile)
	}
	switch o.Format {
	case "text":
		return writeRulesText(s.Out, rules)
	case "json":
		enc := json.NewEncoder(s.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(rules)
	case "markdown":
		return writeRulesMarkdown(s.Out, rules, eng.Profiles())
	}
	return usageError("--format: want text, json or markdown, not %q", o.Format)
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
