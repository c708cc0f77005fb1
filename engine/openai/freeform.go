package openai

import (
	"encoding/json"
	"fmt"
)

// freeFormKey is the one argument a free-form call's text is written under:
// an OpenAI function call's arguments must be the JSON text of an object,
// and a custom tool's input (Codex's apply_patch body) is plain text.
const freeFormKey = "input"

// freeForm writes the arguments of a call the document marks free_form (a
// Codex custom tool, which takes free text by design) as
// {"input": TEXT}, and notes the change: a model trained on the example
// learns to call the tool with that object, not with the bare text.
func (c *converter) freeForm(line, i, k int, call map[string]any, args any) string {
	name, _ := call["name"].(string)
	text, ok := args.(string)
	if !ok {
		// Not text after all (the adapter found an object): encode it as
		// any other input would be.
		b, err := json.Marshal(args)
		if err != nil || args == nil {
			c.note(line, "tool call %d of message %d (%s) takes free-form input but has none: written as {}", k, i, name)
			return "{}"
		}
		return string(b)
	}
	if c.freeTools == nil {
		c.freeTools = map[string]bool{}
	}
	c.freeTools[name] = true
	b, _ := json.Marshal(map[string]string{freeFormKey: text})
	c.note(line, "tool call %d of message %d (%s) takes free-form text, which OpenAI function calls have not: written as the arguments %s", k, i, name, fmt.Sprintf(`{%q: TEXT}`, freeFormKey))
	return string(b)
}

// freeFormSchema is the definition given to a free-form tool the document
// does not define: one required string, the text.
func freeFormSchema() map[string]any {
	return map[string]any{"type": "object", "properties": map[string]any{freeFormKey: map[string]any{"type": "string"}}, "required": []any{freeFormKey}}
}
