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
	// lines are every line the message is written on, in order: [line], or
	// the message's lines when it spans several.
	lines []int
}

type callInfo struct {
	id   string
	path string
	line int // the line holding the call: its message's, unless the call says
}

type entryInfo struct {
	line    int
	onChain bool // the entry is on the conversation's chain (Claude Code)
}

func readDoc(doc *document.Document) ([]msgInfo, []entryInfo) {
	var ms []msgInfo
	if arr := doc.MessageList(); arr != nil {
		ms = make([]msgInfo, arr.Len())
		for i := range ms {
			o, _ := arr.Elem(i).Value.(ast.Object)
			m := msgInfo{line: num(o, document.KeyLine), path: str(o, document.KeyPath), role: str(o, keyRole), toolCallID: str(o, keyToolCallID)}
			m.lines = []int{m.line}
			if ls, ok := get(o, keyLines).(*ast.Array); ok && ls.Len() > 0 {
				m.lines = m.lines[:0]
				for k := 0; k < ls.Len(); k++ {
					n, _ := ls.Elem(k).Value.(ast.Number)
					l, _ := n.Int()
					m.lines = append(m.lines, l)
				}
			}
			if calls, ok := get(o, document.KeyToolCalls).(*ast.Array); ok {
				for k := 0; k < calls.Len(); k++ {
					c, _ := calls.Elem(k).Value.(ast.Object)
					line := num(c, document.KeyLine)
					if line == 0 {
						line = m.line
					}
					m.calls = append(m.calls, callInfo{id: str(c, keyID), path: str(c, document.KeyPath), line: line})
				}
			}
			ms[i] = m
		}
	}
	var es []entryInfo
	if arr := doc.EntryList(); arr != nil {
		es = make([]entryInfo, arr.Len())
		for i := range es {
			o, _ := arr.Elem(i).Value.(ast.Object)
			b, _ := get(o, keyOnChain).(ast.Boolean)
			es[i] = entryInfo{line: num(o, document.KeyLine), onChain: bool(b)}
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
	keyLines      = ast.StringTerm("lines")
	keyOnChain    = ast.StringTerm("on_chain")
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
