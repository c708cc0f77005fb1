package openai

import (
	"strings"

	"github.com/chatlint/chatlint/engine/policy/builtins"
)

// NoOutput is the text an empty tool result whose source says it succeeded
// is written with. An OpenAI tool message has no error flag, and an empty
// one reads as a failure (check's tool-result-flagged: "its content is
// empty"); agent runtimes that hand a model an empty successful result say
// so in words instead, with this sentence (docs/convert.md).
const NoOutput = "Tool ran without output or errors"

// flagged handles what a source's explicit error flag (the document's
// is_error) said about tool result i, which an OpenAI tool message cannot
// carry: an empty successful result gets NoOutput; a failed one that will
// not read as failed is noted, and so is a successful one that check's
// tool-result-flagged will read as failed. It returns the text to write.
func (c *converter) flagged(line, i int, id string, m map[string]any, text string) string {
	isErr, ok := m["is_error"].(bool)
	switch {
	case !ok:
		return text
	case isErr:
		// Noted when the tool message will not read as failed: the
		// failure is then in the example's words only.
		if text != "" && len(builtins.FlagPointers(text, FlagKeys)) == 0 {
			c.note(line, "tool result %d (tool_call_id %q) is marked failed in its source (is_error true); OpenAI chat has no error flag and its text no flag key: written as given, only its words tell the failure", i, id)
		}
	case text == "":
		c.note(line, "tool result %d (tool_call_id %q) is empty and marked successful in its source (is_error false); an empty OpenAI tool message reads as a failure: written as %q", i, id, NoOutput)
		return NoOutput
	default:
		if ptrs := builtins.FlagPointers(text, FlagKeys); len(ptrs) > 0 {
			c.note(line, "tool result %d (tool_call_id %q) is marked successful in its source (is_error false) but its JSON has a truthy flag key at %s; OpenAI chat has no error flag, so check's tool-result-flagged will read it as failed: written as given", i, id, strings.Join(ptrs, ", "))
		}
	}
	return text
}

// FlagKeys are the keys whose truthy value in a JSON payload flags a tool
// result without an error flag: the integrity pack's flag_keys
// (policies/integrity/blocks.rego; a test keeps the two equal).
var FlagKeys = []string{"error", "timeout", "missing", "incomplete"}
