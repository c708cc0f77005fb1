package document

import (
	"errors"
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/jsonv"
)

// ShareGPT records (FastChat/Vicuna, axolotl, Glaive as LLaMA-Factory
// ships it, Hermes function-calling sets) hold a conversation as
// {"conversations": [{"from", "value"}], "system", "tools"}. Tool calls are
// either turns of their own — from "function_call" with a JSON value
// {"name", "arguments"} (or a list of them), answered by "observation"
// turns — or <tool_call> tags in a gpt value answered by "tool" turns
// holding <tool_response> tags. Neither carries ids, so the document gives
// them positional ones (see shareGPTIDs).
var shareGPTAdapter = &Adapter{
	Format:     ShareGPT,
	Summary:    `ShareGPT conversations, JSONL or a .json array: {"conversations": [{"from", "value"}], "system", "tools"} (FastChat, axolotl, Glaive/LLaMA-Factory function_call and observation turns, Hermes <tool_call> tags)`,
	Detect:     func(rec ast.Object) bool { return arrayField(rec, keyConversations) != nil },
	Shape:      "a conversations list",
	NewBuilder: func(file string, opts Options) Builder { return shareGPTBuilder{file: file, opts: opts} },
	Layout:     shareGPTLayout,
	// Converted to OpenAI's messages when trained on: the same tool-message
	// rules, written back in its own layout (Layout).
	Cleanup: []string{"openai-tools"},
}

var (
	keyConversations = ast.StringTerm("conversations")
	keyFrom          = ast.StringTerm("from")
	keySystem        = ast.StringTerm("system")
)

// shareGPTRoles maps the speakers of ShareGPT variants onto the document's
// roles. A speaker not listed keeps its name as its role (rules report it).
var shareGPTRoles = map[string]string{
	"human": "user", "user": "user",
	"gpt": "assistant", "assistant": "assistant", "model": "assistant", "chatgpt": "assistant", "bard": "assistant", "bing": "assistant",
	"system":        "system",
	"function_call": "assistant",
	"observation":   "tool", "tool": "tool", "function": "tool", "ipython": "tool", "function_response": "tool",
}

type shareGPTBuilder struct {
	file string
	opts Options
}

func (b shareGPTBuilder) Add(line int, rec ast.Object) *Document {
	var ms []message
	if s := get(rec, keySystem); s != nil {
		if str, ok := s.Value.(ast.String); ok && str != "" {
			ms = append(ms, message{raw: s, role: "system", text: string(str), textTerm: s, hasContent: true,
				line: line, pathTerm: strTerm("/system"), chatIndex: -1})
		}
	}
	if turns := arrayField(rec, keyConversations); turns != nil {
		for i := 0; i < turns.Len(); i++ {
			ms = append(ms, shareGPTTurn(turns.Elem(i), line, pointerIndex("/conversations", i), len(ms)))
		}
	}
	mode := detectMode(ms, b.opts.ToolCalls)
	shareGPTIDs(ms, mode)
	id := stringField(rec, keyID)
	if id == "" {
		id = fallbackID(b.file, line)
	}
	d := newDoc(ShareGPT, b.file, line, id, b.opts)
	d.Value = newDocument(d, mode, ms, shareGPTTools(rec), emptyArray, ast.NewTerm(rec))
	shareGPTPreference(d.Value, rec, line, len(ms), b.opts)
	return d
}

func (shareGPTBuilder) Finish() *Document { return nil }

// shareGPTTurn reads one turn: its speaker mapped to a role, its value as
// the text; a function_call turn's value is its calls, not text.
func shareGPTTurn(raw *ast.Term, line int, path string, index int) message {
	m := message{raw: raw, line: line, pathTerm: strTerm(path), chatIndex: -1}
	m.obj, _ = raw.Value.(ast.Object)
	if m.obj == nil {
		return m
	}
	from := stringField(m.obj, keyFrom)
	if from == "" {
		from = stringField(m.obj, keyRole) // the {role, content} variant
	}
	m.role = from
	if r, ok := shareGPTRoles[from]; ok {
		m.role = r
	}
	v := get(m.obj, keyValue)
	if v != nil {
		m.valueText = true
	} else {
		v = get(m.obj, keyContent)
	}
	if from == "function_call" {
		m.addShareGPTCalls(v, index)
		return m
	}
	m.text, m.hasContent = contentText(v)
	if v != nil {
		if _, ok := v.Value.(ast.String); ok {
			m.textTerm = v
		}
	}
	return m
}

// addShareGPTCalls reads a function_call turn's value: a JSON object
// {"name", "arguments"} or a list of them, as a string (Glaive,
// LLaMA-Factory) or as JSON. Every call's path is the value: the calls live
// inside it.
func (m *message) addShareGPTCalls(v *ast.Term, index int) {
	path := strTerm(m.pathString() + "/value")
	if get(m.obj, keyValue) == nil {
		path = strTerm(m.pathString() + "/content")
	}
	id := func(k int) *ast.Term { return strTerm(fmt.Sprintf("sharegpt-%d-%d", index, k)) }
	var payload ast.Value
	if v != nil {
		payload = v.Value
	}
	if s, ok := payload.(ast.String); ok {
		dec, err := astjson.Decode([]byte(strings.TrimSpace(string(s))))
		if err != nil {
			m.addCall(id(0), emptyString, nil, false, path, "value is not valid JSON: "+err.Error())
			return
		}
		payload = dec
	}
	var calls []ast.Value
	switch p := payload.(type) {
	case ast.Object:
		calls = []ast.Value{p}
	case *ast.Array:
		for i := 0; i < p.Len(); i++ {
			calls = append(calls, p.Elem(i).Value)
		}
	default:
		m.addCall(id(0), emptyString, nil, false, path, "value is not a JSON object or list of calls")
		return
	}
	for k, c := range calls {
		o, ok := c.(ast.Object)
		if !ok {
			m.addCall(id(k), emptyString, nil, false, path, "call is not a JSON object")
			continue
		}
		cid := stringTerm(o, keyID)
		if cid.Value.(ast.String) == "" {
			cid = id(k)
		}
		args, hasInput := callInput(o)
		m.addCall(cid, stringTerm(o, keyName), args, hasInput, path, "")
	}
}

// shareGPTIDs gives the tool results their calls' ids, by position: the
// k-th result after an assistant message answers its k-th call. The calls
// are a function_call turn's (ids sharegpt-M-K, M the message, K the call)
// or the <tool_call> tags of a gpt turn, which inline parsing later names
// after these results (sharegpt-M-K too). A result past the calls of its
// block, or with no assistant before it, answers nothing and has no
// tool_call_id, so the pairing rules report it.
func shareGPTIDs(ms []message, mode string) {
	turn, k, calls := -1, 0, 0
	for i := range ms {
		m := &ms[i]
		switch m.role {
		case "assistant":
			turn, k = i, 0
			calls = len(m.calls)
			if calls == 0 && mode == modeInline {
				calls = strings.Count(m.text, tagCallOpen)
			}
		case "tool":
			if turn >= 0 && k < calls {
				if k < len(ms[turn].calls) {
					m.callID = get(ms[turn].calls[k].Value.(ast.Object), keyID)
				} else {
					m.callID = strTerm(fmt.Sprintf("sharegpt-%d-%d", turn, k))
				}
			}
			k++
		}
	}
}

// shareGPTTools reads the tools: a list, or a JSON string holding one
// (LLaMA-Factory). Tools inside a string have no pointer of their own: their
// path is the tools member.
func shareGPTTools(rec ast.Object) *ast.Term {
	raw := get(rec, KeyTools)
	if raw == nil {
		return emptyArray
	}
	switch v := raw.Value.(type) {
	case *ast.Array:
		return recordTools(raw, v)
	case ast.String:
		dec, err := astjson.Decode([]byte(strings.TrimSpace(string(v))))
		arr, ok := dec.(*ast.Array)
		if err != nil || !ok {
			return emptyArray
		}
		tools := make([]*ast.Term, arr.Len())
		for i := range tools {
			tools[i] = toolTerm(i, arr.Elem(i), "/tools")
		}
		return ast.ArrayTerm(tools...)
	}
	return emptyArray
}

// shareGPTLayout writes fixed turns as ShareGPT turns: content goes into
// value (a string), an inserted OpenAI message becomes a {from, value} turn.
var shareGPTLayout = &Layout{
	ContentKey: "value",
	Content:    shareGPTValue,
	Message:    shareGPTMessage,
}

func shareGPTValue(v jsonv.Value) (jsonv.Value, error) {
	switch c := v.(type) {
	case string:
		return c, nil
	case nil:
		return "", nil
	}
	return nil, errors.New("a ShareGPT value is a string; this content is not")
}

var shareGPTSpeakers = map[string]string{"user": "human", "assistant": "gpt", "system": "system", "tool": "observation"}

// shareGPTMessage turns an inserted message into a turn. A message already
// written as a turn (it has from) is kept; an OpenAI message is mapped; an
// assistant message with tool calls becomes a function_call turn when it
// has one call and no text.
func shareGPTMessage(v jsonv.Value) (jsonv.Value, error) {
	o, ok := v.(*jsonv.Object)
	if !ok {
		return nil, errors.New("the message is not an object")
	}
	if _, ok := o.Get("from"); ok {
		return o, nil
	}
	role, _ := o.Get("role")
	r, _ := role.(string)
	from, ok := shareGPTSpeakers[r]
	if !ok {
		return nil, fmt.Errorf("role %q has no ShareGPT speaker", r)
	}
	content, _ := o.Get("content")
	if calls, ok := o.Get("tool_calls"); ok && calls != nil {
		return shareGPTCallTurn(calls, content)
	}
	value, err := shareGPTValue(content)
	if err != nil {
		return nil, err
	}
	t := &jsonv.Object{}
	t.Set("from", from)
	t.Set("value", value)
	return t, nil
}

func shareGPTCallTurn(calls, content jsonv.Value) (jsonv.Value, error) {
	list, _ := calls.([]jsonv.Value)
	if len(list) != 1 || (content != nil && content != "") {
		return nil, errors.New("only an assistant message with one tool call and no text can be a function_call turn")
	}
	c, _ := list[0].(*jsonv.Object)
	if c == nil {
		return nil, errors.New("the tool call is not an object")
	}
	if fn, ok := c.Get("function"); ok {
		if f, ok := fn.(*jsonv.Object); ok {
			c = f
		}
	}
	name, _ := c.Get("name")
	args, _ := c.Get("arguments")
	if s, ok := args.(string); ok { // OpenAI's arguments string: the turn holds the object
		if dec, err := jsonv.Decode([]byte(s)); err == nil {
			args = dec
		}
	}
	call := &jsonv.Object{}
	call.Set("name", name)
	call.Set("arguments", args)
	t := &jsonv.Object{}
	t.Set("from", "function_call")
	t.Set("value", string(jsonv.Marshal(call, jsonv.Compact)))
	return t, nil
}
