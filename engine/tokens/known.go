package tokens

import (
	"context"

	"github.com/open-policy-agent/opa/v1/ast"
)

// A count already made travels with the context of a document's evaluation:
// the dataset fold counts an example's tokens before its rules run, and a
// rule that counts the same document in the same encoding
// (chatlint.example_tokens) takes that count instead of tokenizing again.

type knownKey struct{}

type known struct {
	is       func(ast.Object) bool
	encoding string
	n        int
}

// WithCount returns ctx carrying the count in the encoding of the document
// is accepts. A document is given to its rules in more than one form (the
// views the YAML rules read, the objects OPA reads, materialized only when
// OPA runs), each the same document: is says which objects are it.
func WithCount(ctx context.Context, is func(ast.Object) bool, encoding string, n int) context.Context {
	return context.WithValue(ctx, knownKey{}, known{is: is, encoding: encoding, n: n})
}

// CountFrom returns the count ctx carries for this very document (an object
// WithCount's is accepts, not an equal one) in the encoding.
func CountFrom(ctx context.Context, doc ast.Object, encoding string) (int, bool) {
	if ctx == nil {
		return 0, false
	}
	k, ok := ctx.Value(knownKey{}).(known)
	if !ok || k.encoding != encoding || !k.is(doc) {
		return 0, false
	}
	return k.n, true
}
