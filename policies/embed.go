// Package policies embeds the built-in Rego packs: one folder per pack, each
// with its *_test.rego unit tests.
package policies

import "embed"

// FS holds every built-in pack folder.
//
//go:embed *
var FS embed.FS
