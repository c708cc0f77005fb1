package rules

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/rule"
)

type explainOptions struct {
	IO cmdutil.IOStreams

	cmdutil.PackOptions
	Rule string
}

// runF, when not nil, receives the parsed options instead of the run (tests).
func newExplainCmd(s cmdutil.IOStreams, runF func(*explainOptions) error) *cobra.Command {
	o := &explainOptions{IO: s}
	o.Notes = s.ErrOut
	cmd := &cobra.Command{
		Use:   "explain RULE",
		Short: "Explain one rule: description, severity, pack, source, a failing example, how to fix",
		Example: `  chatlint rules explain tool-result-missing
  chatlint rules explain --pack ./team-rules no-empty-assistant`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Rule = args[0]
			if runF != nil {
				return runF(o)
			}
			return runExplain(cmd, o)
		},
	}
	cmdutil.AddPackFlags(cmd, &o.PackOptions)
	return cmd
}

func runExplain(cmd *cobra.Command, o *explainOptions) error {
	eng, err := o.Compile(cmd.Context())
	if err != nil {
		return err
	}
	rules, err := o.WithFixedBy(cmd.Context(), cmdutil.Configured(cmdutil.ActiveRules(eng), o.LoadedConfig))
	if err != nil {
		return err
	}
	i := slices.IndexFunc(rules, func(r rule.Rule) bool { return r.ID == o.Rule })
	if i < 0 {
		return cmdutil.UsageError("no active rule %q%s (chatlint rules lists them)", o.Rule, rule.Suggest(o.Rule, rules))
	}
	return writeExplain(o.IO.Out, rules[i])
}

func writeExplain(w io.Writer, r rule.Rule) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", r.ID)
	if r.Title != "" && r.Title != r.ID {
		fmt.Fprintf(&b, "  %s\n", r.Title)
	}
	fmt.Fprintf(&b, "\nseverity: %s\npack:     %s\nkind:     %s\nsource:   %s\n", r.Severity, r.Pack, r.Kind, r.Source)
	if len(r.Profiles) > 0 {
		fmt.Fprintf(&b, "profiles: %s\n", strings.Join(r.Profiles, ", "))
	}
	if len(r.Severities) > 0 {
		fmt.Fprintf(&b, "under:    %s (a check of chatlint's own: the provider does not make it)\n", severitiesText(r.Severities))
	}
	for i, ref := range r.Refs {
		label := "refs:    "
		if i > 0 {
			label = "         "
		}
		fmt.Fprintf(&b, "%s %s\n", label, ref)
	}
	if r.Scope != "" {
		fmt.Fprintf(&b, "scope:    %s (evaluated once per file, over its dataset document)\n", r.Scope)
	}
	b.WriteString("\n")
	b.WriteString(r.Description + "\n")
	if r.Example != "" {
		fmt.Fprintf(&b, "\nFailing example:\n\n%s\n", indent(r.Example))
	}
	if r.Fix != "" {
		fmt.Fprintf(&b, "\nHow to fix: %s\n", r.Fix)
	}
	b.WriteString("\n" + fixedBySentence(r) + "\n")
	if len(r.Repairs) > 0 {
		fmt.Fprintf(&b, "Repairs (a cleanup rule): %s\n", strings.Join(r.Repairs, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// fixedBySentence says whether chatlint fix repairs a check, and with which
// cleanup rules (pack/rule).
func fixedBySentence(r rule.Rule) string {
	if len(r.FixedBy) == 0 {
		return "chatlint fix: no cleanup rule repairs it."
	}
	return "chatlint fix: repaired by " + strings.Join(r.FixedBy, ", ") + "."
}

// severitiesText words a rule's per-profile severities: "openai, together: warning".
func severitiesText(m map[string]finding.Severity) string {
	by := map[finding.Severity][]string{}
	var sevs []finding.Severity
	for p, s := range m {
		if _, ok := by[s]; !ok {
			sevs = append(sevs, s)
		}
		by[s] = append(by[s], p)
	}
	slices.Sort(sevs)
	parts := make([]string, len(sevs))
	for i, s := range sevs {
		slices.Sort(by[s])
		parts[i] = strings.Join(by[s], ", ") + ": " + s.String()
	}
	return strings.Join(parts, "; ")
}
