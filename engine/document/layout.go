package document

import "github.com/chatlint/chatlint/engine/jsonv"

// Layout is how a format writes a message, for the formats whose messages
// are not OpenAI's {role, content}: fix maps set_content and insert_message
// through it so that a fixed file stays in its own format. A format without
// a Layout is written as OpenAI messages (chat, contract, proxy-log, the
// OpenAI and Anthropic batch requests, whose message lists are OpenAI or
// Anthropic messages as they stand).
type Layout struct {
	// ContentKey is the member of a message set_content replaces.
	ContentKey string
	// Content turns the content a rule gives into the value the format
	// holds, or says why it cannot.
	Content func(v jsonv.Value) (jsonv.Value, error)
	// ElementContent writes a content into an element that does not hold
	// its content under ContentKey (a Gemini functionResponse part keeps a
	// tool result in its response): it returns the member to replace and
	// its new value; ok is false for an element ContentKey and Content serve.
	ElementContent func(elem *jsonv.Object, v jsonv.Value) (key string, val jsonv.Value, ok bool, err error)
	// Message turns a message a rule inserts into an element of the format's
	// message list, or says why it cannot. Rules write OpenAI messages
	// ({"role", "content", "tool_call_id"}) unless they know the format.
	Message func(v jsonv.Value) (jsonv.Value, error)
	// SetCallID and SetResultID give a call, and a result answering it, a
	// new id (rename_tool_call_id), where the format keeps ids elsewhere
	// than in the element's own id (call) or tool_call_id (result) member.
	SetCallID   func(call *jsonv.Object, id string) error
	SetResultID func(result *jsonv.Object, id string) error
}
