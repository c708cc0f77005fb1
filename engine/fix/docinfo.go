package fix

import (
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
)

// msgInfo is what the applier needs of a normalized message: where it lives
// in the raw record(s), and enough to find the results answering a call.
type msgInfo struct {
	line       int    // internal line number, as given to the document builder
	path       string // JSON Pointer inside that line
	role       string
	toolCallID string
	calls      []callInfo
}

type callInfo struct {
	id   string
	path string
}

type entryInfo struct{ line int }

func readDoc(doc *document.Document) ([]msgInfo, []entryInfo) {
	var ms []msgInfo
	if arr := doc.Messages(); arr != nil {
		ms = make([]msgInfo, arr.Len())
		for i := range ms {
			o, _ := arr.Elem(i).Value.(ast.Object)
			m := msgInfo{line: num(o, document.KeyLine), path: str(o, document.KeyPath), role: str(o, keyRole), toolCallID: str(o, keyToolCallID)}
			if calls, ok := get(o, document.KeyToolCalls).(*ast.Array); ok {
				for k := 0; k < calls.Len(); k++ {
					c, _ := calls.Elem(k).Value.(ast.Object)
					m.calls = append(m.calls, callInfo{id: str(c, keyID), path: str(c, document.KeyPath)})
				}
			}
			ms[i] = m
		}
	}
	var es []entryInfo
	if arr := doc.Entries(); arr != nil {
		es = make([]entryInfo, arr.Len())
		for i := range es {
			o, _ := arr.Elem(i).Value.(ast.Object)
			es[i] = entryInfo{line: num(o, document.KeyLine)}
		}
	}
	return ms, es
}

// The members of normalized messages and calls the applier reads that
// package document does not export, made once.
var (
	keyRole       = ast.StringTerm("role")
	keyToolCallID = ast.StringTerm("tool_call_id")
	keyID         = ast.StringTerm("id")
)

func get(o ast.Object, k *ast.Term) ast.Value {
	if o == nil {
		return nil
	}
	if t := o.Get(k); t != nil {
		return t.Value
	}
	return nil
}

func str(o ast.Object, k *ast.Term) string {
	s, _ := get(o, k).(ast.String)
	return string(s)
}

func num(o ast.Object, k *ast.Term) int {
	n, _ := get(o, k).(ast.Number)
	i, _ := n.Int()
	return i
}
