package document

import (
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Under most field sets a pruned message holds nothing of its own: no rule
// reads its index, turn, line, path, text or raw form, and it has no tool
// call, tool_call_id, stop_reason, is_error or second line. Such a message
// is then the same value wherever it appears, {"role": "user",
// "tool_calls": []} say, so one term serves every message of that role (and
// has_content) in every record, as the decoder's repeated tools list does:
// terms are never mutated. The one-rule bench pack's documents are mostly
// made of them.

// sharedMessages holds the shared message terms of one Fields, one slot
// per common role and has_content.
type sharedMessages struct {
	slots [len(sharedRoles) * 2]atomic.Pointer[ast.Term]
}

// sharedRoles are the roles whose messages are shared; a message of another
// role is built on its own, so that records cannot grow the table.
var sharedRoles = [...]string{"system", "user", "assistant", "tool", "developer"}

// readsOwn reports whether f keeps a member that differs from message to
// message whatever its role: then no message is shared.
func (f *Fields) readsOwn() bool {
	return f.msgIndex || f.turn || f.msgLine || f.msgPath || f.msgRaw || f.text
}

// sharedMessage returns the term of pruned message m when it can be shared
// (see above), building it the first time; nil when m has members of its own.
func (s *sharedMessages) sharedMessage(m *message, calls *ast.Term, f *Fields) *ast.Term {
	if s == nil || calls != emptyArray || m.callID != nil || m.stopReason != nil || m.isError != nil || len(m.lines) > 1 {
		return nil
	}
	slot := -1
	for k, r := range sharedRoles {
		if m.role == r {
			slot = 2 * k
			break
		}
	}
	if slot < 0 {
		return nil
	}
	if m.hasContent {
		slot++
	}
	if t := s.slots[slot].Load(); t != nil {
		return t
	}
	t := ast.NewTerm(prunedMessage(m, 0, 0, calls, nil, f))
	s.slots[slot].Store(t) // a racing builder stores an equal term
	return t
}
