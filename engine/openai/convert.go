package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
)

// Convert turns one normalized document into its examples (one, or one per
// assistant message with SplitTurns) and the notes on what they could not
// hold. A document that gives no example has an Error note saying why.
func Convert(d *document.Document, opts Options) ([]Example, []Note) {
	if d.Format == document.Text {
		return nil, []Note{{Line: d.Line, Error: true, Message: textNote}}
	}
	// Past its messages the document is read no more (line and format
	// stand for it), so that a caller that holds it no longer lets a long
	// session's lines go while the example is counted (overLimit).
	line, format := d.Line, d.Format
	doc, msgs, err := members(d)
	c := newConverter(opts, line)
	if err != nil {
		return nil, []Note{{Line: d.Line, Error: true, Message: unreadable}}
	}
	for _, u := range d.Unmapped {
		c.note(u.Line, "%s: not kept in an OpenAI chat example", u.What)
	}
	raw, _ := doc["raw"].(map[string]any)
	if d.Format == document.OpenAIBatchInput || d.Format == document.OpenAIBatchOutput {
		return c.joined(d, raw)
	}
	if n, negative := c.ktoNegative(raw); negative {
		return nil, []Note{n}
	}
	c.inline = doc["mode"] == "inline"
	c.images = recordImages(raw)
	out, err := c.messageTerms(msgs)
	if err != nil {
		return nil, []Note{{Line: line, Error: true, Message: unreadable}}
	}
	out = c.system(out, doc["raw"])
	c.leftoverImages(out)
	tools := c.undefined(out, c.tools(doc["tools"]))
	if chosen, rejected, ok := preference(doc); ok {
		return c.preference(out, tools, chosen, rejected)
	}
	if !hasAssistant(out) {
		c.notes = append(c.notes, Note{Line: line, Error: true, Message: "no assistant message to train on: no example written"})
		return nil, c.notes
	}
	c.leftOut(format, doc["raw"])
	exs := []Example{{Messages: out, Tools: tools}}
	if opts.SplitTurns {
		exs = nil
		for i, m := range out {
			if m.Role == "assistant" {
				exs = append(exs, Example{Messages: out[: i+1 : i+1], Tools: tools})
			}
		}
	}
	c.overLimit(exs)
	return exs, c.notes
}

// unreadable is the note on a document whose values are not all JSON.
const unreadable = "the document could not be read"

var (
	keyMessages   = ast.StringTerm("messages")
	keyRole       = ast.StringTerm("role")
	keyToolCallID = ast.StringTerm("tool_call_id")
	keyTurn       = ast.StringTerm("turn")
)

// unread are the members of a document Convert never reads: a session's
// entries (each line again, whole) and the lookup the rules read.
var unread = map[string]bool{"entries": true, "lookup": true}

// members reads the document as Go values, but for the members Convert
// never reads and the messages, which it reads one at a time (messages):
// a long session's messages and lines made Go values all at once, beside
// the document, were most of convert's memory.
func members(d *document.Document) (map[string]any, *ast.Array, error) {
	if d.Value == nil {
		return nil, nil, errors.New("no document")
	}
	doc := make(map[string]any, d.Value.Len())
	var msgs *ast.Array
	var err error
	d.Value.Foreach(func(k, v *ast.Term) {
		name, _ := k.Value.(ast.String)
		switch {
		case err != nil || unread[string(name)]:
			return
		case k.Equal(keyMessages):
			msgs, _ = v.Value.(*ast.Array)
			return
		}
		doc[string(name)], err = document.JSONValue(v.Value)
	})
	return doc, msgs, err
}

func newConverter(opts Options, line int) *converter {
	return &converter{opts: opts, line: line, answered: map[turnID]bool{}, renamed: map[turnID]string{}, used: map[string]bool{}, emitted: map[turnID]bool{}}
}

// messages converts a list of normalized messages (Go values).
func (c *converter) messages(msgs []any) []Message {
	out, _ := c.convertAll(len(msgs), func(i int) (any, error) { return msgs[i], nil }, func(i int, k *ast.Term) any {
		mo, _ := msgs[i].(map[string]any)
		return mo[string(k.Value.(ast.String))]
	})
	return out
}

// messageTerms converts a document's messages, each made a Go value only
// as it is reached: a long session's messages made Go values all at once
// were held beside the document until the last was converted.
func (c *converter) messageTerms(msgs *ast.Array) ([]Message, error) {
	if msgs == nil {
		return c.messages(nil), nil
	}
	return c.convertAll(msgs.Len(), func(i int) (any, error) { return document.JSONValue(msgs.Elem(i).Value) }, func(i int, k *ast.Term) any {
		mo, _ := msgs.Elem(i).Value.(ast.Object)
		if mo == nil {
			return nil
		}
		t := mo.Get(k)
		if t == nil {
			return nil
		}
		v, _ := document.JSONValue(t.Value)
		return v
	})
}

// convertAll converts n messages: at gives message i as a Go value,
// member its member k (nil when absent), read before any is converted.
func (c *converter) convertAll(n int, at func(i int) (any, error), member func(i int, k *ast.Term) any) ([]Message, error) {
	c.index(n, member)
	var out []Message
	for i := range n {
		m, err := at(i)
		if err != nil {
			return nil, err
		}
		if mo, ok := m.(map[string]any); ok {
			out = c.message(out, i, mo, i == n-1)
		}
	}
	c.reasoningLeft()
	return out, nil
}

type turnID struct {
	turn int
	id   string
}

type converter struct {
	opts   Options
	line   int
	inline bool
	notes  []Note
	// answered holds the [turn, tool_call_id] of every tool result.
	answered map[turnID]bool
	// renamed maps a call id reused from an earlier turn to the id it is
	// written with in this turn; used holds every id written.
	renamed map[turnID]string
	used    map[string]bool
	// emitted holds the results written, to leave out a second one.
	emitted map[turnID]bool
	// calls holds the calls written, to tell a result from an orphan.
	calls map[turnID]bool
	// pending is reasoning read from a message of its own, for the next
	// assistant message (KeepReasoning).
	pending string
	// freeTools holds the tools called with free-form text (written as
	// {"input": TEXT}), which an undefined tool's definition follows.
	freeTools map[string]bool
	// blockEnd is the position in the output after the last assistant
	// message with its results so far: where its next result goes.
	blockEnd int
	// images are the record's own images (LLaMA-Factory "images"), which
	// its <image> tokens place; nextImage is the first not placed yet.
	images    []string
	nextImage int
	// droppedReasoning lists the messages whose reasoning was left out
	// (without KeepReasoning), reasoningKinds where it was held, redacted
	// the messages holding encrypted reasoning: one note per conversation
	// (trainflags.go).
	droppedReasoning []int
	reasoningKinds   []string
	redacted         []int
	reasoningLine    int
	redactedLine     int
}

func (c *converter) note(line int, format string, args ...any) {
	c.notes = append(c.notes, Note{Line: line, Message: fmt.Sprintf(format, args...)})
}

// index gathers the [turn, tool_call_id] of every tool result of n
// messages, member reading member k of message i.
func (c *converter) index(n int, member func(i int, k *ast.Term) any) {
	c.calls = map[turnID]bool{}
	for i := range n {
		role := member(i, keyRole)
		if id, ok := member(i, keyToolCallID).(string); ok && role == "tool" {
			c.answered[turnID{num(member(i, keyTurn)), id}] = true
		}
		if role == "function" {
			c.answered[turnID{num(member(i, keyTurn)), legacyID(num(member(i, keyTurn)))}] = true
		}
	}
}

func (c *converter) message(out []Message, i int, m map[string]any, last bool) []Message {
	role, _ := m["role"].(string)
	line := num(m["line"])
	if line <= 0 {
		line = c.line
	}
	text, _ := m["text"].(string)
	c.parts(line, i, role, m["raw"])
	if role != "assistant" && role != "reasoning" && role != "thinking" {
		c.inputFlags(line, i, role, m["raw"])
	}
	switch role {
	case "system", "developer", "user":
		if role == "developer" {
			role = "system"
		}
		if role == "user" {
			if parts := c.userParts(line, i, m["raw"], text); parts != nil {
				return append(out, Message{Role: role, Parts: parts})
			}
		} else {
			text = c.noImageTokens(line, i, role, text)
		}
		if strings.TrimSpace(text) == "" {
			if !onlyToolResults(m["raw"]) {
				c.note(line, "%s message %d has no text: left out", role, i)
			}
			return out
		}
		return append(out, Message{Role: role, Content: &text})
	case "assistant":
		return c.assistant(out, i, m, line, text, last)
	case "tool":
		return c.result(out, i, m, line, text)
	case "reasoning", "thinking":
		// A reasoning item of its own (agent logs that keep it apart from
		// the reply): kept, with --keep-reasoning, in front of the next
		// assistant message's text.
		own, kinds, redacted := reasoningOf(m["raw"])
		if redacted {
			c.sawRedacted(line, i)
		}
		if r := strings.TrimSpace(text + "\n" + own); r != "" {
			if c.opts.KeepReasoning {
				c.pending = strings.TrimSpace(c.pending + "\n" + r)
			} else {
				c.sawReasoning(line, i, append([]string{role + " messages"}, kinds...))
			}
		}
		return out
	case "function":
		// The reply to a legacy function_call: a tool result of the call
		// it was converted to.
		m["tool_call_id"] = legacyID(num(m["turn"]))
		return c.result(out, i, m, line, text)
	}
	c.note(line, "message %d has role %q, which OpenAI chat has not: left out", i, role)
	return out
}

var inlineCall = regexp.MustCompile(`(?s)<tool_call>.*?(?:</tool_call>|$)`)

func (c *converter) assistant(out []Message, i int, m map[string]any, line int, text string, last bool) []Message {
	if c.inline {
		text = strings.TrimSpace(inlineCall.ReplaceAllString(text, ""))
	}
	own, kinds, redacted := reasoningOf(m["raw"])
	if redacted {
		c.sawRedacted(line, i)
	}
	if c.opts.KeepReasoning {
		r := strings.TrimSpace(c.pending + "\n" + own)
		c.pending = ""
		if r != "" {
			text = strings.TrimSpace("<think>\n" + r + "\n</think>\n" + text)
		}
	} else {
		c.sawReasoning(line, i, kinds)
	}
	msg := Message{Role: "assistant"}
	calls, _ := m["tool_calls"].([]any)
	if call := legacyCall(i, m["raw"]); call != nil && len(calls) == 0 {
		c.note(line, "assistant message %d uses the legacy function_call: written as tool call %q", i, call["id"])
		calls = []any{call}
	}
	for k, cv := range calls {
		call, _ := cv.(map[string]any)
		name, _ := call["name"].(string)
		id, _ := call["id"].(string)
		if name == "" {
			c.note(line, "tool call %d of message %d has no name: left out", k, i)
			continue
		}
		if id == "" {
			id = fmt.Sprintf("call_%d_%d", i, k)
			c.note(line, "tool call %d of message %d (%s) has no id: written as %q", k, i, name, id)
		}
		key := turnID{i, id}
		// A call left unanswered before the conversation goes on is not
		// a training target; one that ends the conversation is.
		if !c.answered[key] && !last {
			c.note(line, "tool call %q (%s) of message %d has no result: left out", id, name, i)
			continue
		}
		if c.calls[key] {
			c.note(line, "tool call id %q is used twice in message %d: the second call is left out", id, i)
			continue
		}
		c.calls[key] = true
		written := id
		for n := 2; c.used[written]; n++ {
			written = fmt.Sprintf("%s_%d", id, n)
		}
		if written != id {
			c.note(line, "tool call id %q of message %d was used before: written as %q", id, i, written)
			c.renamed[key] = written
		}
		c.used[written] = true
		// A note on the arguments names the call's own line (a session
		// writes each call of a message on a line of its own).
		argLine := line
		if l := num(call["line"]); l > 0 {
			argLine = l
		}
		msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: written, Type: "function", Function: Function{Name: name, Arguments: c.arguments(argLine, i, k, call)}})
	}
	text = c.noImageTokens(line, i, "assistant", text)
	if strings.TrimSpace(text) != "" {
		msg.Content = &text
	}
	msg.Weight = c.weight(line, i, m["raw"])
	if msg.Content == nil && len(msg.ToolCalls) == 0 {
		c.note(line, "assistant message %d has neither text nor tool calls: left out", i)
		return out
	}
	out = append(out, msg)
	c.blockEnd = len(out)
	return out
}

// arguments writes a call's input as the JSON string OpenAI wants: a string
// as given, anything else encoded; no input at all is "{}".
func (c *converter) arguments(line, i, k int, call map[string]any) string {
	has, _ := call["has_input"].(bool)
	args, present := call["arguments"]
	if free, _ := call["free_form"].(bool); free {
		return c.freeForm(line, i, k, call, args)
	}
	switch {
	case !has || !present || args == nil:
		c.note(line, "tool call %d of message %d has no arguments: written as {}", k, i)
		return "{}"
	}
	if s, ok := args.(string); ok {
		if !json.Valid([]byte(s)) {
			c.note(line, "the arguments of tool call %d of message %d are not valid JSON: written as given", k, i)
		}
		return s
	}
	b, err := json.Marshal(args)
	if err != nil {
		return "{}"
	}
	return string(b)
}

var resultWrapper = regexp.MustCompile(`(?s)^<tool_result[^>]*>(.*?)(?:</tool_result>)?$`)

func (c *converter) result(out []Message, i int, m map[string]any, line int, text string) []Message {
	id, ok := m["tool_call_id"].(string)
	turn := num(m["turn"])
	key := turnID{turn, id}
	switch {
	case !ok || id == "":
		c.note(line, "tool result %d has no tool_call_id: left out", i)
		return out
	case !c.calls[key]:
		c.note(line, "tool result %d (tool_call_id %q) answers no tool call of its turn: left out", i, id)
		return out
	case c.emitted[key]:
		c.note(line, "tool result %d repeats the result of tool call %q: left out", i, id)
		return out
	}
	c.emitted[key] = true
	if c.inline {
		if sub := resultWrapper.FindStringSubmatch(text); sub != nil {
			text = sub[1]
		}
	}
	if w, ok := c.renamed[key]; ok {
		id = w
	}
	text = c.flagged(line, i, id, m, text)
	res := Message{Role: "tool", ToolCallID: id, Content: &text}
	// OpenAI wants a call's results right after its assistant message: one
	// that came after other messages moves up to the end of its block.
	at := c.blockEnd
	c.blockEnd++
	if at == len(out) {
		return append(out, res)
	}
	c.note(line, "tool result %d (tool_call_id %q) came after other messages: moved up to follow its call", i, id)
	return append(out[:at], append([]Message{res}, out[at:]...)...)
}

func (c *converter) tools(v any) []Tool {
	list, _ := v.([]any)
	var out []Tool
	seen := map[string]bool{}
	for i, tv := range list {
		t, _ := tv.(map[string]any)
		fn, _ := t["function"].(map[string]any)
		name, _ := t["name"].(string)
		switch {
		case fn == nil || name == "":
			c.note(c.line, "tool %d has no function with a name: left out", i)
			continue
		case seen[name]:
			c.note(c.line, "tool %d (%s) is defined again: the first definition is kept", i, name)
			continue
		}
		seen[name] = true
		def := ToolFuncDef{Name: name}
		def.Description, _ = fn["description"].(string)
		if p, ok := t["parameters"]; ok && p != nil {
			def.Parameters = p
		}
		out = append(out, Tool{Type: "function", Function: def})
	}
	return out
}

func hasAssistant(ms []Message) bool {
	for _, m := range ms {
		if m.Role == "assistant" {
			return true
		}
	}
	return false
}

// num reads a JSON number of the document as an int (-1 when absent).
func num(v any) int {
	switch n := v.(type) {
	case json.Number:
		i, err := n.Int64()
		if err == nil {
			return int(i)
		}
	case float64:
		return int(n)
	case int:
		return n
	}
	return -1
}

// legacyID is the id a legacy function_call of message i is written with.
func legacyID(i int) string { return fmt.Sprintf("call_%d_function_call", i) }

// legacyCall returns the legacy function_call of a raw assistant message as
// a normalized tool call, nil when it has none.
func legacyCall(i int, raw any) map[string]any {
	r, _ := raw.(map[string]any)
	fc, _ := r["function_call"].(map[string]any)
	name, _ := fc["name"].(string)
	if name == "" {
		return nil
	}
	args, has := fc["arguments"]
	return map[string]any{"id": legacyID(i), "name": name, "arguments": args, "has_input": has && args != nil}
}

// undefined adds a definition for each tool the examples call but the
// document does not define (agent transcripts carry no tool list): its name
// and a schema that takes any object, so the example stays a valid
// fine-tuning example. Noted, since the definition is made up.
func (c *converter) undefined(out []Message, tools []Tool) []Tool {
	defined := map[string]bool{}
	for _, t := range tools {
		defined[t.Function.Name] = true
	}
	var added []string
	for _, m := range out {
		for _, tc := range m.ToolCalls {
			if n := tc.Function.Name; !defined[n] {
				defined[n] = true
				added = append(added, n)
				params := map[string]any{"type": "object", "properties": map[string]any{}}
				if c.freeTools[n] {
					params = freeFormSchema()
				}
				tools = append(tools, Tool{Type: "function", Function: ToolFuncDef{Name: n, Parameters: params}})
			}
		}
	}
	if len(added) > 0 {
		var free []string
		for _, n := range added {
			if c.freeTools[n] {
				free = append(free, n)
			}
		}
		var also string
		if len(free) > 0 {
			also = fmt.Sprintf(" (free-form %s: an object with one string, %q)", strings.Join(free, ", "), freeFormKey)
		}
		c.note(c.line, "the conversation calls tools it does not define (%s): each is written with a schema that takes any object%s", strings.Join(added, ", "), also)
	}
	return tools
}

// systemKeys are the members where a record keeps its system prompt outside
// the messages (Anthropic and ShareGPT "system", Gemini
// "systemInstruction").
var systemKeys = []string{"system", "systemInstruction"}

// system puts a record-level system prompt in front of the messages, unless
// the messages already have a system message (an adapter that normalized
// it into one).
func (c *converter) system(out []Message, raw any) []Message {
	r, _ := raw.(map[string]any)
	for _, m := range out {
		if m.Role == "system" {
			return out
		}
	}
	for _, k := range systemKeys {
		v, ok := r[k]
		if !ok || v == nil {
			continue
		}
		if o, isObj := v.(map[string]any); isObj {
			v = o["parts"]
		}
		var text string
		switch t := v.(type) {
		case string:
			text = t
		case []any:
			var parts []string
			for _, p := range t {
				po, _ := p.(map[string]any)
				if s, ok := po["text"].(string); ok {
					parts = append(parts, s)
				} else if s, ok := p.(string); ok {
					parts = append(parts, s)
				}
			}
			text = strings.Join(parts, "\n")
		}
		if strings.TrimSpace(text) == "" {
			c.note(c.line, "the record's %s holds no text: left out", k)
			continue
		}
		return append([]Message{{Role: "system", Content: &text}}, out...)
	}
	return out
}
