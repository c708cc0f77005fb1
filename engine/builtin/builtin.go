// Package builtin loads the packs embedded in the binary: the Rego of
// policies/ and the YAML of rules/, folders of the same name making one pack.
package builtin

import (
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/policies"
	"github.com/chatlint/chatlint/rules"
)

// Packs returns the built-in packs of checks (what check runs by default),
// sorted by name. The cleanup packs fix runs are left out: see Cleanup.
func Packs() ([]*policy.Pack, error) {
	return filter(func(p *policy.Pack) bool { return p.Kind != policy.KindCleanup })
}

// Cleanup returns the built-in cleanup packs (pack.yaml `kind: cleanup`),
// sorted by name.
func Cleanup() ([]*policy.Pack, error) {
	return filter(func(p *policy.Pack) bool { return p.Kind == policy.KindCleanup })
}

// All returns every built-in pack, sorted by name.
func All() ([]*policy.Pack, error) {
	return policy.LoadBuiltin(
		policy.BuiltinSource{FS: policies.FS, Prefix: "builtin:policies"},
		policy.BuiltinSource{FS: rules.FS, Prefix: "builtin:rules"},
	)
}

func filter(keep func(*policy.Pack) bool) ([]*policy.Pack, error) {
	all, err := All()
	if err != nil {
		return nil, err
	}
	var out []*policy.Pack
	for _, p := range all {
		if keep(p) {
			out = append(out, p)
		}
	}
	return out, nil
}
