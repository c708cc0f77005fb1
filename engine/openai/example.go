// Package openai turns normalized conversation documents (engine/document)
// into OpenAI chat fine-tuning examples: {"messages", "tools"}, tool calls as
// tool_calls with JSON-string arguments, tool results as tool messages. It
// reads only the normalized document — roles, text, tool calls, tool results,
// tool definitions, and a message's raw content for the parts the document
// has no field for — so every input format an adapter normalizes converts
// without code of its own here. What an example cannot hold is returned as a
// Note, never dropped without a word. See docs/convert.md.
package openai

import (
	"bytes"
	"encoding/json"

	"github.com/chatlint/chatlint/engine/document"
)

// Example is one fine-tuning example, written as one JSON line: a chat
// example {"messages", "tools"}, or a preference (DPO) example {"input":
// {"messages", "tools"}, "preferred_output", "non_preferred_output"}, the
// shape OpenAI's preference fine-tuning reads.
type Example struct {
	Messages []Message `json:"messages,omitempty"`
	Tools    []Tool    `json:"tools,omitempty"`

	Input              *PreferenceInput `json:"input,omitempty"`
	PreferredOutput    []Message        `json:"preferred_output,omitempty"`
	NonPreferredOutput []Message        `json:"non_preferred_output,omitempty"`
}

// PreferenceInput is the prompt of a preference example.
type PreferenceInput struct {
	Messages []Message `json:"messages"`
	Tools    []Tool    `json:"tools,omitempty"`
}

// Message is one chat message of an example. Content is absent on an
// assistant message that only calls tools; Parts, when set, is written as
// the content instead (a user message holding images). Weight is an
// assistant message's training weight (0 or 1) where the source gave one.
type Message struct {
	Role       string     `json:"role"`
	Content    *string    `json:"content,omitempty"`
	Parts      []Part     `json:"-"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Weight     *int       `json:"weight,omitempty"`
}

// Part is one content part of a message: text, or an image given by URL
// (an https URL or a data: URL; a local path is written as given, with a
// note).
type Part struct {
	Type     string    `json:"type"`
	Text     *string   `json:"text,omitempty"`
	ImageURL *ImageURL `json:"image_url,omitempty"`
}

// ImageURL is an image_url part's image.
type ImageURL struct {
	URL    string `json:"url"`
	Detail string `json:"detail,omitempty"`
}

// MarshalJSON writes Parts as the content when the message has them.
// HTML characters are not escaped, as convert's encoder writes the rest.
func (m Message) MarshalJSON() ([]byte, error) {
	type plain Message
	var v any = plain(m)
	if m.Parts != nil {
		v = struct {
			plain
			Content []Part `json:"content"`
		}{plain(m), m.Parts}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
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
	// KTONegatives says what to do with a record a KTO dataset marks
	// undesirable (label false), which must never become a positive
	// example: KTOSkip (the default) or KTOError.
	KTONegatives string
	// Answers, when set, are the answers of the Batch output files given
	// with their Batch input files: each request is written with its
	// answer (see Answers).
	Answers *Answers
}

// The choices of Options.KTONegatives (convert --kto-negatives).
const (
	// KTOSkip writes no example for the record, with a warning note.
	KTOSkip = "skip"
	// KTOError writes no example and makes it an error (exit status 1),
	// for a pipeline that must not be handed KTO data at all.
	KTOError = "error"
)
