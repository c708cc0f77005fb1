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
	doc      ast.Object
	encoding string
	n        int
}

// WithCount returns ctx carrying doc's count in the encoding.
func WithCount(ctx context.Context, doc ast.Object, encoding string, n int) context.Context {
	return context.WithValue(ctx, knownKey{}, known{doc: doc, encoding: encoding, n: n})
}

// CountFrom returns the count ctx carries for this very document (the same
// object, not an equal one) in the encoding.
func CountFrom(ctx context.Context, doc ast.Object, encoding string) (int, bool) {
	if ctx == nil {
		return 0, false
	}
	k, ok := ctx.Value(knownKey{}).(known)
	if !ok || k.doc != doc || k.encoding != encoding {
		return 0, false
	}
	return k.n, true
}
