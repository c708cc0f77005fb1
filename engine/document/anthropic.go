package document

import "github.com/open-policy-agent/opa/v1/ast"

// Anthropic Messages records answer tool calls differently from OpenAI ones:
// an assistant message's tool_use content blocks are answered by tool_result
// blocks ({"type": "tool_result", "tool_use_id", "content", "is_error"}) in
// the content of the next user message, several results in one message. The
// normalized document gives each such block a message of its own with role
// "tool", so that one pairing rule serves both conventions.

// appendMessages reads one message as given and appends its normalized
// form: usually one message; a user message holding tool_result blocks
// becomes one tool message per block, in order, then a user message with
// the rest of its content when there is any.
func appendMessages(ms []message, raw *ast.Term, line int, path *ast.Term, chatIndex int) []message {
	o, _ := raw.Value.(ast.Object)
	content := get(o, keyContent)
	var parts *ast.Array
	if content != nil {
		parts, _ = content.Value.(*ast.Array)
	}
	if parts == nil || stringField(o, keyRole) != "user" || !hasToolResult(parts) {
		return append(ms, readMessageContent(raw, o, content, line, path, chatIndex))
	}
	rest := false
	for j := 0; j < parts.Len(); j++ {
		b, ok := parts.Elem(j).Value.(ast.Object)
		if !ok || !isToolResult(b) {
			rest = true
			continue
		}
		p := pointerIndex(string(path.Value.(ast.String))+"/content", j)
		m := message{raw: parts.Elem(j), obj: b, role: "tool", line: line, pathTerm: strTerm(p), chatIndex: -1, toolCalls: toolCallsOf(b)}
		c := get(b, keyContent)
		m.text, m.hasContent = contentText(c)
		if c != nil {
			if _, ok := c.Value.(ast.String); ok {
				m.textTerm = c
			}
		}
		m.callID = firstPresent(b, keyToolUseIDs)
		m.isError = boolMember(b, keyIsError)
		ms = append(ms, m)
	}
	if rest {
		m := readMessage(raw, line, path, chatIndex)
		m.hasContent = true
		ms = append(ms, m)
	}
	return ms
}

func hasToolResult(parts *ast.Array) bool {
	for j := 0; j < parts.Len(); j++ {
		if b, ok := parts.Elem(j).Value.(ast.Object); ok && isToolResult(b) {
			return true
		}
	}
	return false
}

// isToolResult reports whether a content block is an Anthropic tool result:
// type "tool_result" with a tool_use_id member. A block without the id
// answers nothing that can be named, and stays part of the user message.
func isToolResult(b ast.Object) bool {
	return stringField(b, keyType) == "tool_result" && get(b, keyToolUseIDs) != nil
}

// toolParameters returns the JSON Schema of a tool definition and its
// pointer: parameters (OpenAI), else input_schema (Anthropic). When an
// object definition has neither, the schema is nil and the pointer is where
// parameters would be, so a finding about the missing schema names it; ""
// when the definition is not an object.
func toolParameters(def *ast.Term, defPath string) (*ast.Term, string) {
	o, ok := def.Value.(ast.Object)
	if !ok {
		return nil, ""
	}
	if t := get(o, keyParameters); t != nil {
		return t, defPath + "/parameters"
	}
	if t := get(o, keyInputSchema); t != nil {
		return t, defPath + "/input_schema"
	}
	return nil, defPath + "/parameters"
}

// anthropicParts and anthropicIDs are the content blocks of Anthropic's
// Messages API and where its tool results name their call, for the formats
// that hold its messages.
var (
	anthropicParts = &PartKinds{ToolCalls: []string{"tool_use"}, ToolResults: []string{"tool_result"},
		Reasoning: []string{"thinking", "redacted_thinking"}}
	anthropicIDs = &IDMembers{Results: []string{"tool_use_id"}}
)
