package yamlrule

import (
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"

	"github.com/chatlint/chatlint/engine/document"
)

// The YAML evaluator reads pruned documents, whose messages are
// document.MessageValues: ast.Objects that answer Get from slots and build
// their OPA object when anything else is asked of them, so every type
// switch and member lookup here takes them as they are. OPA's Compare and
// Equal do not know them (an object compared with a view panics), so
// comparing two values of a document goes through compareValues.

// compareValues is ast.Compare for values that may hold views.
func compareValues(a, b ast.Value) int {
	return ast.Compare(document.Plain(a), document.Plain(b))
}

// sameAs is same_as's test: v and w equal as ast.Compare says, where either
// may hold a projection's stand-ins (astjson.Projection.Digest): a value a
// rule only compares with the same path of another element is decoded as
// a digest of it, and a value built whole (a content part read as a
// message) is compared with one through its digest.
func sameAs(v, w ast.Value) bool {
	switch w.(type) {
	case ast.String, ast.Boolean:
		return sameValue(v, w)
	}
	return astjson.Equal(document.Plain(v), document.Plain(w))
}
