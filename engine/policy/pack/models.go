package pack

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/chatlint/chatlint/engine/document"
)

// ModelsFile is the name of a pack's model table: the models one
// fine-tunes, with the encoding their examples are counted in, the token
// limit of one example and the price of training. It is data, so a team
// adds a model by editing YAML, without rebuilding chatlint.
const ModelsFile = "models.yaml"

// Model is one row of a model table.
type Model = document.Model

type modelsFile struct {
	// Default is the model a run uses when --model is not given.
	Default string  `yaml:"default"`
	Models  []Model `yaml:"models"`
}

// parseModels reads a models.yaml.
func parseModels(f File) ([]Model, string, error) {
	var m modelsFile
	if err := yaml.Unmarshal(f.Source, &m); err != nil {
		return nil, "", fmt.Errorf("%s: %v", f.Name, err)
	}
	for i, x := range m.Models {
		if x.Name == "" || x.Encoding == "" || x.Limit <= 0 {
			return nil, "", fmt.Errorf("%s: model %d needs a name, an encoding and a positive limit", f.Name, i)
		}
	}
	if m.Default != "" && !hasModel(m.Models, m.Default) {
		return nil, "", fmt.Errorf("%s: default model %q is not in the table", f.Name, m.Default)
	}
	return m.Models, m.Default, nil
}

func hasModel(ms []Model, name string) bool {
	for _, m := range ms {
		if m.Name == name {
			return true
		}
	}
	return false
}

// mergeModels adds the models of a pack; a model already known keeps its
// first definition.
func MergeModels(have, add []Model) []Model {
	for _, m := range add {
		if !hasModel(have, m.Name) {
			have = append(have, m)
		}
	}
	return have
}
