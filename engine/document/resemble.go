package document

import (
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// unread is a shape people hand chatlint that no adapter reads: a record
// that no format claims is compared with each, so that the
// unrecognized-format finding says what the file looks like and what to do
// rather than only listing the formats it is not.
//
// Each entry is independent: when an adapter for one of these shapes is
// registered, delete its entry (TestResemblesNoReadFormat fails until then,
// since the entry's example would be claimed).
type unread struct {
	// Like names the shape: "a Gemini CLI session".
	Like string
	// Do says what to do with such a file.
	Do string
	// Match reports whether rec, a record no format claimed, has the shape.
	Match func(rec ast.Object) bool
	// Example is one record of the shape, for the tests.
	Example string
}

// convertHint is what to do with a shape chatlint does not read: convert it
// to a format it reads.
const convertHint = `convert it to chat records {"messages": [{"role", "content"}]} to check it`

var unreadShapes = []unread{
	{
		Like: "a Gemini CLI session (~/.gemini/tmp/<hash>/chats/session-*.json)",
		Do:   convertHint,
		Match: func(rec ast.Object) bool {
			return has(rec, "sessionId") && has(rec, "projectHash")
		},
		Example: `{"sessionId":"s","projectHash":"h","startTime":"t","lastUpdated":"t","messages":[{"id":"1","timestamp":"t","type":"user","content":"hi"}]}`,
	},
	{
		Like: "a LangChain/LangGraph message dump ({type: human|ai|tool, content})",
		Do:   convertHint + " (langchain_core's convert_to_openai_messages does it)",
		Match: func(rec ast.Object) bool {
			if has(rec, "lc") && has(rec, "kwargs") { // lc-serialized: {lc: 1, type: "constructor", id, kwargs}
				return true
			}
			return messagesTyped(rec, "human", "ai", "tool", "system", "AIMessage", "HumanMessage")
		},
		Example: `{"messages":[{"type":"human","content":"hi"},{"type":"ai","content":"hello","tool_calls":[]}]}`,
	},
	{
		Like: "an OpenHands event stream (events keyed by action/observation)",
		Do:   convertHint,
		Match: func(rec ast.Object) bool {
			return has(rec, "source") && (has(rec, "action") || has(rec, "observation"))
		},
		Example: `{"id":1,"timestamp":"t","source":"user","message":"hi","action":"message","args":{"content":"hi"}}`,
	},
	{
		Like:    "a SWE-agent trajectory (.traj)",
		Do:      convertHint + " (its history holds them)",
		Match:   func(rec ast.Object) bool { return arrayField(rec, ast.StringTerm("history")) != nil },
		Example: `{"environment":"e","trajectory":[],"history":[{"role":"system","content":"x","agent":"main"}],"info":{}}`,
	},
	{
		Like: "a mini-swe-agent trajectory",
		Do:   convertHint + " (its messages hold them)",
		Match: func(rec ast.Object) bool {
			return strings.HasPrefix(stringField(rec, ast.StringTerm("trajectory_format")), "mini-swe-agent")
		},
		Example: `{"info":{},"messages":[{"type":"x"}],"trajectory_format":"mini-swe-agent-1.1"}`,
	},
	{
		Like:    "an OpenAI Agents SDK run state",
		Do:      convertHint,
		Match:   func(rec ast.Object) bool { return has(rec, "$schemaVersion") && has(rec, "generated_items") },
		Example: `{"$schemaVersion":"1.13","current_agent":{},"generated_items":[],"conversation_id":null}`,
	},
	{
		Like: "an OpenAI Responses API item (function_call, function_call_output, message items)",
		Do:   convertHint,
		Match: func(rec ast.Object) bool {
			switch stringField(rec, keyType) {
			case "function_call", "function_call_output", "reasoning":
				return has(rec, "call_id") || has(rec, "id")
			case "message":
				return has(rec, "role") && has(rec, "content")
			}
			return false
		},
		Example: `{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"}`,
	},
	{
		Like: "one message per record ({role, content}: a Cline task history, a bare trajectory list)",
		Do:   `put a conversation's messages in one record, {"messages": [...]}, to check it`,
		Match: func(rec ast.Object) bool {
			return isString(get(rec, keyRole)) && has(rec, "content") && !has(rec, "created")
		},
		Example: `{"role":"user","content":[{"type":"text","text":"hi"}],"ts":1}`,
	},
	{
		Like:    "an instruction record (Alpaca {instruction, input, output})",
		Do:      convertHint,
		Match:   func(rec ast.Object) bool { return has(rec, "instruction") && has(rec, "output") },
		Example: `{"instruction":"Say hi","input":"","output":"hi"}`,
	},
	{
		Like:    "a prompt/completion record",
		Do:      convertHint,
		Match:   func(rec ast.Object) bool { return has(rec, "prompt") && has(rec, "completion") },
		Example: `{"prompt":"Q: hi","completion":"hello"}`,
	},
	{
		Like:    "a plain-text training record ({text})",
		Do:      "plain text holds no conversation to check",
		Match:   func(rec ast.Object) bool { return isString(get(rec, keyText)) && rec.Len() <= 2 },
		Example: `{"text":"table: t columns: a Q: x A: SELECT a FROM t"}`,
	},
	{
		Like:    "an xLAM/APIGen function-calling record ({query, tools, answers})",
		Do:      convertHint,
		Match:   func(rec ast.Object) bool { return has(rec, "query") && has(rec, "answers") },
		Example: `{"query":"weather?","tools":"[]","answers":"[]"}`,
	},
	{
		Like:    "a Hermes few-shot record ({example} text with <tool_call> tags)",
		Do:      convertHint + " (tool calls may stay inline as <tool_call> tags)",
		Match:   func(rec ast.Object) bool { return isString(get(rec, ast.StringTerm("example"))) },
		Example: `{"example":"SYSTEM: x\nUSER: hi\nASSISTANT: <tool_call>{}</tool_call>"}`,
	},
}

// Resemble names the shape rec looks like among those no adapter reads, and
// what to do with it; ok is false when it looks like none of them.
func Resemble(rec ast.Object) (like, do string, ok bool) {
	for _, u := range unreadShapes {
		if u.Match(rec) {
			return u.Like, u.Do, true
		}
	}
	return "", "", false
}

// has reports whether rec has the member k.
func has(rec ast.Object, k string) bool { return get(rec, ast.StringTerm(k)) != nil }

// messagesTyped reports whether rec's messages are objects told by a type
// among types, with no role: another framework's message list.
func messagesTyped(rec ast.Object, types ...string) bool {
	msgs := arrayField(rec, KeyMessages)
	if msgs == nil || msgs.Len() == 0 {
		return false
	}
	m, ok := msgs.Elem(0).Value.(ast.Object)
	if !ok || get(m, keyRole) != nil {
		return false
	}
	t := stringField(m, keyType)
	for _, want := range types {
		if t == want {
			return true
		}
	}
	return false
}
