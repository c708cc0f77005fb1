// Package openai turns normalized conversation documents (engine/document)
// into OpenAI chat fine-tuning examples: {"messages", "tools"}, tool calls as
// tool_calls with JSON-string arguments, tool results as tool messages. It
// reads only the normalized document — roles, text, tool calls, tool results,
// tool definitions, and a message's raw content for the parts the document
// has no field for — so every input format an adapter normalizes converts
// without code of its own here. What an example cannot hold is returned as a
// Note, never dropped without a word. See docs/convert.md.
package openai

import "github.com/chatlint/chatlint/engine/document"

// Example is one fine-tuning example, written as one JSON line.
type Example struct {
	Messages []Message `json:"messages"`
	Tools    []Tool    `json:"tools,omitempty"`
}

// Message is one chat message of an example. Content is absent on an
// assistant message that only calls tools.
type Message struct {
	Role       string     `json:"role"`
	Content    *string    `json:"content,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// ToolCall is an assistant's call, arguments as a JSON string.
type ToolCall struct {
	ID       string   `json:"id"`
	Type     string   `json:"type"`
	Function Function `json:"function"`
}

// Function is a call's function: its name and arguments.
type Function struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Tool is one tool definition.
type Tool struct {
	Type     string      `json:"type"`
	Function ToolFuncDef `json:"function"`
}

// ToolFuncDef is a tool's function: name, description and JSON Schema.
type ToolFuncDef struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Parameters  any    `json:"parameters,omitempty"`
}

// Note says what an example could not hold, and where it was in the input.
type Note struct {
	Line int
	// Error is true when the whole document gave no example; otherwise a
	// piece of it was left out or changed.
	Error   bool
	Message string
}

// Options change the conversion.
type Options struct {
	// KeepReasoning keeps thinking and reasoning blocks, as a
	// <think>…</think> block in front of the assistant's text.
	KeepReasoning bool
	// SplitTurns gives one example per assistant message: the conversation
	// up to and including it.
	SplitTurns bool
	// Model, when set, is the model the examples are for (the packs'
	// model table): an example over its token limit is noted.
	Model *document.Model
}
