package openai

import (
	"encoding/json"
	"strings"
)

// NoOutput is the text an empty tool result whose source says it succeeded
// is written with. An OpenAI tool message has no error flag, and an empty
// one reads as a failure (check's tool-result-flagged: "its content is
// empty"); agent runtimes that hand a model an empty successful result say
// so in words instead, with this sentence (docs/convert.md).
const NoOutput = "Tool ran without output or errors"

// flagged handles what a source's explicit error flag (the document's
// is_error) said about tool result i, which an OpenAI tool message cannot
// carry: an empty successful result gets NoOutput, and every result whose
// payload alone no longer tells what the flag told is noted. It returns the
// text to write.
func (c *converter) flagged(line, i int, id string, m map[string]any, text string) string {
	isErr, ok := m["is_error"].(bool)
	switch {
	case !ok:
		return text
	case isErr:
		c.note(line, "tool result %d (tool_call_id %q) is marked failed in its source (is_error true); OpenAI chat has no error flag: written as given, its text alone tells the failure", i, id)
	case text == "":
		c.note(line, "tool result %d (tool_call_id %q) is empty and marked successful in its source (is_error false); an empty OpenAI tool message reads as a failure: written as %q", i, id, NoOutput)
		return NoOutput
	case isJSONPayload(text):
		c.note(line, "tool result %d (tool_call_id %q) is marked successful in its source (is_error false) but holds JSON; OpenAI chat has no error flag, so a check of its keys (tool-result-flagged) may take it for a failure: written as given", i, id)
	}
	return text
}

// isJSONPayload reports whether a result's text is a JSON object or array,
// the payloads a reader without an error flag looks into.
func isJSONPayload(s string) bool {
	s = strings.TrimSpace(s)
	return (strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[")) && json.Valid([]byte(s))
}
