package openai

import (
	"slices"
	"strings"

	"github.com/chatlint/chatlint/engine/document"
)

// The content parts the normalized document represents: text (a message's
// text), tool calls and tool results (its tool_calls and the tool messages),
// and reasoning (left out unless KeepReasoning), as the adapters name them
// (document.ClassifyPart). A part of any other kind — an image, a file,
// audio, a part no adapter knows — has no place in an OpenAI chat example
// and is reported.

// contentParts returns the parts of a raw message: its content (or Gemini's
// parts) when that is a list, looking inside an entry that wraps the message
// in a "message" member (transcript lines).
func contentParts(raw any) []any {
	m, _ := raw.(map[string]any)
	if l, ok := m["content"].([]any); ok {
		return l
	}
	if l, ok := m["parts"].([]any); ok {
		return l
	}
	if inner, ok := m["message"].(map[string]any); ok {
		return contentParts(inner)
	}
	return nil
}

// parts reports each part of message i the example cannot hold. An image
// goes into a user message's parts (userParts); in a message of another
// role it is left out, as OpenAI's examples hold images in user messages
// only.
//
// Consecutive parts of one unknown kind are one note: a list of 30 million
// numbers as content made as many notes, and 12 GB.
func (c *converter) parts(line, i int, role string, raw any) {
	from, run := 0, ""
	flush := func(to int) {
		switch {
		case run == "":
		case to == from:
			c.note(line, "part %d of message %d (%s) cannot be represented in an OpenAI chat example: left out", from, i, run)
		default:
			c.note(line, "parts %d to %d of message %d (each %s) cannot be represented in an OpenAI chat example: left out", from, to, i, run)
		}
		run = ""
	}
	for k, p := range contentParts(raw) {
		if _, ok, _ := imagePart(p); ok {
			flush(k - 1)
			if role != "user" {
				c.note(line, "part %d of message %d is an image; OpenAI examples hold images in user messages only, not %s messages: left out", k, i, role)
			}
			continue
		}
		kind := unknownPart(p)
		if kind != run {
			flush(k - 1)
			from, run = k, kind
		}
	}
	flush(len(contentParts(raw)) - 1)
}

// jsonKind names the JSON kind of a decoded value that is not an object or
// a string, as a user reads it (not as Go names its type).
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case []any:
		return "array"
	default:
		return "number"
	}
}

// unknownPart names the kind of a part that is none of the known ones, ""
// for a known one.
func unknownPart(p any) string {
	o, ok := p.(map[string]any)
	if !ok {
		if _, isString := p.(string); isString {
			return ""
		}
		return "a JSON " + jsonKind(p)
	}
	if document.ClassifyPart(o) != document.PartUnknown {
		return ""
	}
	if t, ok := o["type"].(string); ok {
		return "type " + t
	}
	var keys []string
	for k := range o {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return "a part with " + strings.Join(keys, ", ")
}

// onlyToolResults reports whether a raw message's content is only tool
// results (an Anthropic user message the document split into tool messages).
func onlyToolResults(raw any) bool {
	ps := contentParts(raw)
	for _, p := range ps {
		if o, _ := p.(map[string]any); document.ClassifyPart(o) != document.PartToolResult {
			return false
		}
	}
	return len(ps) > 0
}

// reasoningMembers are the members a message keeps its reasoning in beside
// its content: reasoning_content (DeepSeek's deepseek-reasoner API, "at the
// same level as content"; vLLM's reasoning parsers; distilled datasets
// written from them), reasoning (vLLM's newer name, OpenRouter) and
// thinking (Ollama's chat messages).
var reasoningMembers = []string{"reasoning_content", "reasoning", "thinking"}

// reasoningOf returns the text of a raw message's reasoning — its
// reasoning parts (thinking, reasoning, Gemini's thought parts, LLaMA-
// Factory's reasoning parts keyed value), its reasoning members and a
// Gemini CLI message's thoughts — the kinds it found them in, and whether
// it holds encrypted reasoning (redacted_thinking), which has no text.
func reasoningOf(raw any) (string, []string, bool) {
	var out, kinds []string
	redacted := false
	add := func(kind, s string) {
		if strings.TrimSpace(s) == "" {
			return
		}
		out = append(out, s)
		if !slices.Contains(kinds, kind) {
			kinds = append(kinds, kind)
		}
	}
	for _, p := range contentParts(raw) {
		o, _ := p.(map[string]any)
		switch t, _ := o["type"].(string); {
		case t == "thinking":
			s, _ := o["thinking"].(string)
			add("thinking parts", s)
		case t == "redacted_thinking":
			redacted = true
		case t == "reasoning":
			s, _ := o["text"].(string)
			if s == "" {
				s, _ = o["reasoning"].(string)
			}
			if s == "" {
				s, _ = o["value"].(string)
			}
			add("reasoning parts", s)
		case o["thought"] == true:
			s, _ := o["text"].(string)
			add("thought parts", s)
		}
	}
	m := messageMembers(raw)
	for _, k := range reasoningMembers {
		s, _ := m[k].(string)
		add(k, s)
	}
	// Gemini CLI keeps a turn's thought summaries beside its content:
	// {"thoughts": [{"subject", "description"}]}.
	thoughts, _ := m["thoughts"].([]any)
	for _, t := range thoughts {
		o, _ := t.(map[string]any)
		subject, _ := o["subject"].(string)
		desc, _ := o["description"].(string)
		add("thoughts", strings.TrimSpace(strings.TrimSpace(subject)+"\n"+strings.TrimSpace(desc)))
	}
	return strings.Join(out, "\n"), kinds, redacted
}
