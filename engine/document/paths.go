package document

import "github.com/open-policy-agent/opa/v1/ast"

// The pointers of a chat record's first messages and of their first tool
// calls, built once. Every normalized message and call carries its pointer,
// and building "/messages/3/tool_calls/1" per record cost two allocations per
// message and per call (a fifth of normalization's allocations).
const (
	pathMessages = 128
	pathCalls    = 8
)

var (
	messagePaths [pathMessages]*ast.Term            // "/messages/i"
	callPaths    [pathMessages][pathCalls]*ast.Term // "/messages/i/tool_calls/j"
	// messagePathHashes are messagePaths' hashes, which every message's
	// hash adds (MessageValue.Hash)
	messagePathHashes [pathMessages]int
)

func init() {
	for i := range messagePaths {
		p := pointerIndex("/messages", i)
		messagePaths[i] = ast.StringTerm(p)
		messagePathHashes[i] = messagePaths[i].Hash()
		for j := range callPaths[i] {
			callPaths[i][j] = ast.StringTerm(pointerIndex(p+"/tool_calls", j))
		}
	}
}

// messagePath returns the pointer of message i of a chat record.
func messagePath(i int) *ast.Term {
	if i < pathMessages {
		return messagePaths[i]
	}
	return ast.StringTerm(pointerIndex("/messages", i))
}

// callPath returns the pointer of tool_calls entry i of message m.
func (m *message) callPath(i int) *ast.Term {
	if m.chatIndex >= 0 && m.chatIndex < pathMessages && i < pathCalls {
		return callPaths[m.chatIndex][i]
	}
	return ast.StringTerm(pointerIndex(m.pathString()+"/tool_calls", i))
}
