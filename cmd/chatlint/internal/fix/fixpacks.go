package fix

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/engine/fix"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/rule"
)

// compile compiles the stages fix runs (fix.CleanupPlan): each --pack on
// its own, or each format's default built-in packs, each pack once.
func (o *fixOptions) compile(cmd *cobra.Command) (*fix.Stages, error) {
	stages, err := fix.CleanupPlan(o.Packs).Compile(func(_ int, ref string) (*policy.Engine, error) {
		po := cmdutil.PackOptions{NoBuiltin: true, NoConfig: true, Packs: []string{ref}, Disable: o.Disable, Timeout: o.Timeout, DisableChecked: true}
		return po.Compile(cmd.Context())
	})
	if err != nil {
		return nil, err
	}
	// A --disable must name a rule of some pack fix runs.
	all := slices.Clone(lint.CoreRules)
	for _, eng := range stages.Engines() {
		all = append(all, eng.AllRules()...)
	}
	slices.SortFunc(all, func(a, b rule.Rule) int { return strings.Compare(a.ID, b.ID) })
	all = slices.CompactFunc(all, func(a, b rule.Rule) bool { return a.ID == b.ID })
	known := map[string]bool{}
	for _, r := range all {
		known[r.ID] = true
	}
	if err := cmdutil.CheckDisable(o.Disable, known, all); err != nil {
		return nil, err
	}
	return stages, nil
}
