// Package rules embeds the built-in YAML rule packs: one folder per pack.
package rules

import "embed"

// FS holds every built-in pack folder.
//
//go:embed *
var FS embed.FS
