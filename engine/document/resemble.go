package document

import (
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
		Like:    "an OpenAI Agents SDK run state",
		Do:      convertHint,
		Match:   func(rec ast.Object) bool { return has(rec, "$schemaVersion") && has(rec, "generated_items") },
		Example: `{"$schemaVersion":"1.13","current_agent":{},"generated_items":[],"conversation_id":null}`,
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
