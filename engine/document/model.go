package document

import (
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Model is a model one fine-tunes, as a pack's model table (models.yaml)
// describes it: the tokenizer encoding its examples are counted with, the
// most tokens one training example may have, and the price of training.
// Rules read it as the document's "model" field.
type Model struct {
	Name     string `yaml:"name" json:"name"`
	Encoding string `yaml:"encoding" json:"encoding"`
	// Limit is the training context: tokens per example.
	Limit int `yaml:"limit" json:"limit"`
	// PricePerMillion is the price of one million training tokens, in USD.
	PricePerMillion float64 `yaml:"price_per_million" json:"price_per_million"`
}

// Term is the model as the document's "model" field.
func (m *Model) Term() *ast.Term {
	return ast.ObjectTerm(
		ast.Item(ast.StringTerm("name"), ast.StringTerm(m.Name)),
		ast.Item(ast.StringTerm("encoding"), ast.StringTerm(m.Encoding)),
		ast.Item(ast.StringTerm("limit"), ast.IntNumberTerm(m.Limit)),
		ast.Item(ast.StringTerm("price_per_million"), ast.FloatNumberTerm(m.PricePerMillion)),
	)
}

var keyModel = ast.StringTerm("model")

// modelTerms keeps each model's term, built once: every document of a run
// shares it.
var modelTerms sync.Map // *Model → *ast.Term

// term is the model's document field; null when no model is set.
func (m *Model) term() *ast.Term {
	if m == nil {
		return ast.NullTerm()
	}
	if t, ok := modelTerms.Load(m); ok {
		return t.(*ast.Term)
	}
	t, _ := modelTerms.LoadOrStore(m, m.Term())
	return t.(*ast.Term)
}
