package convert

import (
	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy"
)

// convertModel resolves convert --to's --model against the model tables of
// the built-in packs (the finetune pack's models.yaml, which check
// --profile openai reads too): the named model, else the tables' default.
// The packs are loaded, not compiled: only their tables are read.
func convertModel(name string) (*document.Model, error) {
	packs, err := builtin.Packs()
	if err != nil {
		return nil, err
	}
	var models []policy.Model
	def := ""
	for _, p := range packs {
		models = append(models, p.Models...)
		if def == "" {
			def = p.DefaultModel
		}
	}
	if name == "" {
		name = def
	}
	if name == "" {
		return nil, nil
	}
	for _, m := range models {
		if m.Name == name {
			return &m, nil
		}
	}
	names := make([]string, len(models))
	for i, m := range models {
		names[i] = m.Name
	}
	return nil, cmdutil.UsageError("--model: unknown model %q (the built-in model tables know %v)", name, names)
}
