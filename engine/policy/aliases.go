// Package policy loads rule packs (Rego policies and YAML rules), compiles
// them once, and evaluates them over normalized documents.
package policy

import (
	"io/fs"

	"github.com/chatlint/chatlint/engine/policy/pack"
)

// The pack vocabulary lives in policy/pack, below the YAML rules and the
// Rego evaluation that both use it; callers keep naming it here.
type (
	File         = pack.File
	Pack         = pack.Pack
	Profile      = pack.Profile
	Model        = pack.Model
	Hit          = pack.Hit
	CompileError = pack.CompileError
)

// KindCleanup is the pack kind of cleanup packs (see pack.KindCleanup).
const KindCleanup = pack.KindCleanup

// ModelsFile is the name of a pack's model table (see pack.ModelsFile).
const ModelsFile = pack.ModelsFile

// LoadFS reads a pack from a tree of files (see pack.LoadFS).
func LoadFS(fsys fs.FS, dir, prefix string) (*Pack, error) { return pack.LoadFS(fsys, dir, prefix) }
