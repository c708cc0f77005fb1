package yamlrule

import (
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
)

// messagesSlot is the slot of the document's messages in a memberRows row.
var messagesSlot = memberSlot("messages")

// $previous in a path of a YAML rule is the message right before the
// element's message ($message) in the document's messages: absent for the
// first message and for elements outside the messages. Cleanup rules ask
// about neighbours (a message that repeats the one before it, a tool result
// that does not follow its call or another result), which a join cannot say
// without arithmetic on indexes.
func (sc *scope) previous() ast.Object {
	if sc.message == nil || sc.msgIdx <= 0 {
		return nil
	}
	t := memberOf(sc.doc, document.KeyMessages, messagesSlot, sc)
	if t == nil {
		return nil
	}
	arr, ok := t.Value.(*ast.Array)
	if !ok || int(sc.msgIdx) > arr.Len() {
		return nil
	}
	o, _ := arr.Elem(int(sc.msgIdx) - 1).Value.(ast.Object)
	return o
}
