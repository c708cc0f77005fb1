package yamlrule

import (
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
)

// asObject is v as an ast.Object, or nil. The walks and lookups ask it of
// every value they pass, and most of those are the document's message
// views and the decoder's object views: a type switch on those concrete
// types compares one word, where the assertion to the interface looks the
// method table up.
func asObject(v ast.Value) ast.Object {
	switch x := v.(type) {
	case *document.MessageValue:
		return x
	case *astjson.ObjectView:
		return x
	}
	o, _ := v.(ast.Object)
	return o
}
