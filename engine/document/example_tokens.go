package document

import "github.com/open-policy-agent/opa/v1/ast"

// keyExampleTokens is the member of a record's document that holds its
// tokens as a training example, when the run counted them.
var keyExampleTokens = ast.StringTerm("example_tokens")

// SetExampleTokens records the document's tokens as a training example, as
// the run counted them (package tokens; the dataset fold counts every
// example under a profile whose rules read tokens). A rule reads the count
// as example_tokens instead of counting again: the finetune pack's gate
// compares it with the model's limit, so that OPA runs only on the examples
// example-too-long may report. The member is absent when the run did not
// count.
func (d *Document) SetExampleTokens(n int) {
	t := ast.IntNumberTerm(n)
	d.Value.Insert(keyExampleTokens, t)
	if d.mat != nil && d.mat != d.Value {
		d.mat.Insert(keyExampleTokens, t)
	}
}
