package builtins

import (
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"

	"github.com/chatlint/chatlint/engine/tokens"
)

// chatlint.example_tokens(doc, encoding) counts the tokens of one training
// example, a normalized document, in an encoding (o200k_base or
// cl100k_base), as package tokens describes. Tokens are counted only when a
// rule calls it, so a run whose rules never ask pays nothing.
func init() {
	rego.RegisterBuiltin2(&rego.Function{
		Name: "chatlint.example_tokens",
		Decl: types.NewFunction(types.Args(types.A, types.S), types.N),
	}, exampleTokens)
}

func exampleTokens(bctx rego.BuiltinContext, doc, enc *ast.Term) (*ast.Term, error) {
	o, ok := doc.Value.(ast.Object)
	if !ok {
		return nil, nil
	}
	s, ok := enc.Value.(ast.String)
	if !ok {
		return nil, nil
	}
	if n, ok := tokens.CountFrom(bctx.Context, o, string(s)); ok { // the dataset fold counted it
		return ast.IntNumberTerm(n), nil
	}
	c, err := tokens.Shared(string(s))
	if err != nil {
		return nil, err
	}
	return ast.IntNumberTerm(c.Document(o)), nil
}
