package cmdutil

import (
	"context"
	"slices"
	"strings"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/rule"
)

// WithFixedBy fills each check's FixedBy from the packs' own data: the
// Repairs (custom.repairs, YAML repairs) that the cleanup rules fix may run
// declare — the built-in cleanup packs (unless --no-builtin) and any cleanup
// pack among the loaded ones. The cleanup rules themselves get none.
func (o *PackOptions) WithFixedBy(ctx context.Context, rules []rule.Rule) ([]rule.Rule, error) {
	var packs []*policy.Pack
	if !o.NoBuiltin {
		b, err := builtin.Cleanup()
		if err != nil {
			return nil, err
		}
		packs = append(packs, b...)
	}
	loaded, err := o.load()
	if err != nil {
		return nil, err
	}
	for _, p := range loaded {
		if p.Kind == policy.KindCleanup && !slices.ContainsFunc(packs, func(q *policy.Pack) bool { return q.Name == p.Name }) {
			packs = append(packs, p)
		}
	}
	byCheck := map[string][]string{}
	cleanup := map[string]bool{}
	for _, p := range packs {
		cleanup[p.Name] = true
		// Each pack on its own, as fix compiles them: cleanup packs may share
		// rule ids.
		eng, err := policy.Compile(ctx, []*policy.Pack{p}, policy.Options{})
		if err != nil {
			return nil, CompileFailure(err)
		}
		for _, r := range eng.Rules() {
			for _, id := range r.Repairs {
				byCheck[id] = append(byCheck[id], repairer(r))
			}
		}
	}
	out := slices.Clone(rules)
	for i, r := range out {
		if by := byCheck[r.ID]; len(by) > 0 && !cleanup[r.Pack] {
			slices.Sort(by)
			out[i].FixedBy = slices.Compact(slices.Clone(by))
		}
	}
	return out, nil
}

// repairer names a cleanup rule in a check's FixedBy: "pack/rule", followed
// by where it acts when that is not everywhere — the tool-call
// representations, then the formats ("(structured)", "(inline; chat,
// contract)"): a rule repairs a check only where it runs.
func repairer(r rule.Rule) string {
	var where []string
	if len(r.Modes) > 0 {
		where = append(where, strings.Join(r.Modes, ", "))
	}
	if len(r.Formats) > 0 {
		where = append(where, strings.Join(r.Formats, ", "))
	}
	if len(where) == 0 {
		return r.Pack + "/" + r.ID
	}
	return r.Pack + "/" + r.ID + " (" + strings.Join(where, "; ") + ")"
}
