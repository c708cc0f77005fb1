package policy

import (
	"fmt"
	"strings"
)

// Models returns the models of every pack's model table, in pack order.
func (e *Engine) Models() []Model { return e.models }

// DefaultModel is the first default a pack's model table names ("" when
// none does).
func (e *Engine) DefaultModel() string { return e.defaultModel }

// Model looks a model up by name; ok is false for an unknown name, and the
// error lists the known ones.
func (e *Engine) Model(name string) (*Model, error) {
	var names []string
	for i := range e.models {
		if e.models[i].Name == name {
			m := e.models[i]
			return &m, nil
		}
		names = append(names, e.models[i].Name)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("unknown model %q: no active pack has a model table (%s)", name, ModelsFile)
	}
	return nil, fmt.Errorf("unknown model %q (the model tables know %s)", name, strings.Join(names, ", "))
}
