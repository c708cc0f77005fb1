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

// WithTokenReads returns f keeping, besides what it keeps, every member
// package tokens counts of an example (tokens.Counter.Document): the
// messages' role, text, tool_call_id, raw (its name) and tool calls (their
// name and arguments), and the tools. A run that counts every example
// builds its documents pruned with it, rather than whole, and counts
// them as built.
func (f *Fields) WithTokenReads() *Fields {
	if f.All() {
		return f
	}
	g := *f
	g.messages, g.tools = true, true
	g.role, g.text, g.toolCallID, g.msgRaw, g.toolCalls = true, true, true, true, true
	g.callName, g.callArguments = true, true
	g.shared = nil
	if !g.readsOwn() {
		g.shared = &sharedMessages{}
	}
	return &g
}
