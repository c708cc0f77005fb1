// Package builtin loads the packs embedded in the binary: the Rego of
// policies/ and the YAML of rules/, folders of the same name making one pack.
package builtin

import (
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/policies"
	"github.com/chatlint/chatlint/rules"
)

// Packs returns the built-in packs, sorted by name.
func Packs() ([]*policy.Pack, error) {
	return policy.LoadBuiltin(
		policy.BuiltinSource{FS: policies.FS, Prefix: "builtin:policies"},
		policy.BuiltinSource{FS: rules.FS, Prefix: "builtin:rules"},
	)
}
