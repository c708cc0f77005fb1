package document

import (
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// Tool calls without ids, paired by order.
//
// transformers' chat templates and the records TRL trains on carry tool
// calls without ids ({"type": "function", "function": {"name",
// "arguments"}}) and results that name only the tool ({"role": "tool",
// "name", "content"}); LLaMA-Factory's content-part records do the same with
// {"type": "tool_call", "value": "{\"name\", \"arguments\"}"} parts. The
// templates pair them by order: the k-th result after an assistant message
// answers its k-th call. The normalized document does the same: such a call
// and its result share the id order-M-K (M the assistant message, K the
// call among its calls without an id), so the pairing rules see an answered
// call where there is one. A call left without a result keeps no id (it is
// not judged, as before); a result left without a call keeps none (it is
// reported).

// orderIDs gives the calls without an id of each assistant message, and the
// results without a tool_call_id in its block, their positional ids. It
// runs on the first pass (role and callID read) before the calls are built.
func orderIDs(ms []message) {
	for i := range ms {
		m := &ms[i]
		if m.role != "assistant" || m.obj == nil || m.ownCalls {
			continue
		}
		n := idlessCalls(m)
		if n == 0 {
			continue
		}
		k := 0
		for j := i + 1; j < len(ms) && ms[j].role != "assistant" && k < n; j++ {
			r := &ms[j]
			if r.role != "tool" || hasID(r.callID) {
				continue
			}
			id := strTerm(fmt.Sprintf("order-%d-%d", i, k))
			if m.order == nil {
				m.order = &orderState{}
			}
			m.order.ids = append(m.order.ids, id)
			r.callID = id
			k++
		}
	}
}

// idlessCalls counts a message's tool calls that carry no id, in the order
// structuredCalls reads them: tool_calls entries, then call blocks.
func idlessCalls(m *message) int {
	n := 0
	if calls := m.callList(); calls != nil {
		for i := 0; i < calls.Len(); i++ {
			if c, ok := calls.Elem(i).Value.(ast.Object); ok && !hasID(get(c, keyID)) {
				n++
			}
		}
	}
	if parts := arrayField(m.obj, keyContent); parts != nil {
		for i := 0; i < parts.Len(); i++ {
			if b, ok := parts.Elem(i).Value.(ast.Object); ok && callBlockTypes[stringField(b, keyType)] && !hasID(get(b, keyID)) {
				n++
			}
		}
	}
	return n
}

// hasID reports whether t is a non-empty string id.
func hasID(t *ast.Term) bool {
	if t == nil {
		return false
	}
	s, ok := t.Value.(ast.String)
	return ok && s != ""
}

// nextOrderID returns the positional id of the message's next call without
// an id, or id as given when it has one or no result answered it.
func (m *message) nextOrderID(id *ast.Term) *ast.Term {
	if hasID(id) || m.order == nil || m.order.next >= len(m.order.ids) {
		return id
	}
	id = m.order.ids[m.order.next]
	m.order.next++
	return id
}

// addValueCall adds a call written as a JSON string in a part's value
// ({"type": "tool_call", "value": "{\"name\": …, \"arguments\": …}"},
// LLaMA-Factory's content parts): the call is the object the string holds.
func (m *message) addValueCall(id, v *ast.Term, path *ast.Term) {
	s, ok := v.Value.(ast.String)
	if !ok {
		m.addCall(id, emptyString, nil, false, path, "value is not a JSON string holding the call")
		return
	}
	dec, err := astjson.Decode([]byte(strings.TrimSpace(string(s))))
	if err != nil {
		m.addCall(id, emptyString, nil, false, path, "value is not valid JSON: "+err.Error())
		return
	}
	o, ok := dec.(ast.Object)
	if !ok {
		m.addCall(id, emptyString, nil, false, path, "value is not a JSON object")
		return
	}
	if cid := stringTerm(o, keyID); hasID(cid) {
		id = cid
	}
	args, hasInput := callInput(o)
	m.addCall(id, stringTerm(o, keyName), args, hasInput, path, "")
}
