package document

import (
	"errors"
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/jsonv"
)

// Gemini (Google AI and Vertex AI) requests and tuning records:
// {"systemInstruction": {"parts"}, "contents": [{"role": "user"|"model",
// "parts": [{"text"} | {"functionCall": {"name", "args", "id"}} |
// {"functionResponse": {"name", "response", "id"}} | {"inlineData"} | …]}],
// "tools": [{"functionDeclarations": [...]}]}, or the same under "request"
// (batch prediction lines). The REST API accepts snake_case member names
// too (system_instruction, function_call, …); both are read.
//
// A model turn's functionCall parts are its tool calls. Each functionResponse
// part becomes a tool message of its own, as an Anthropic tool_result block
// does, and the rest of the user turn follows as a user message. Calls and
// responses without an id are paired by position within their block: call K
// of message M is gemini-M-K and the K-th response after it answers it.
var geminiAdapter = &Adapter{
	Format:     Gemini,
	Summary:    `Gemini / Vertex AI requests and tuning records: {"systemInstruction", "contents": [{"role": "user"|"model", "parts": [...]}], "tools"}, or the same under "request"`,
	Detect:     func(rec ast.Object) bool { req, _ := geminiRequest(rec); return req != nil },
	Shape:      "a contents list (or request.contents)",
	NewBuilder: func(file string, opts Options) Builder { return geminiBuilder{file: file, opts: opts} },
	Layout:     geminiLayout,
	// Converted to OpenAI's messages when sent or trained on: the same
	// tool-message rules, written back in its own layout (Layout).
	Cleanup: []string{"openai-tools"},
	// Parts without a type, named by their member; {"thought": true} is
	// reasoning.
	Parts: &PartKinds{ToolCalls: []string{"functionCall"}, ToolResults: []string{"function_response", "functionResponse"}, Thought: true,
		Untyped: []UntypedPart{{"text", PartText}, {"functionCall", PartToolCall}, {"functionResponse", PartToolResult},
			{"function_call", PartToolCall}, {"function_response", PartToolResult}}},
}

var (
	keyContents        = ast.StringTerm("contents")
	keyParts           = ast.StringTerm("parts")
	keyArgs            = ast.StringTerm("args")
	keySysInstr        = [2]*ast.Term{ast.StringTerm("systemInstruction"), ast.StringTerm("system_instruction")}
	keyFunctionCall    = [2]*ast.Term{ast.StringTerm("functionCall"), ast.StringTerm("function_call")}
	keyFunctionResp    = [2]*ast.Term{ast.StringTerm("functionResponse"), ast.StringTerm("function_response")}
	keyFunctionDecls   = [2]*ast.Term{ast.StringTerm("functionDeclarations"), ast.StringTerm("function_declarations")}
	keyKey             = ast.StringTerm("key")
	geminiContentParts = termsOf("inlineData", "inline_data", "fileData", "file_data", "executableCode", "executable_code", "codeExecutionResult", "code_execution_result")
)

func termsOf(names ...string) []*ast.Term {
	out := make([]*ast.Term, len(names))
	for i, n := range names {
		out[i] = ast.StringTerm(n)
	}
	return out
}

// either returns the member under its camelCase or its snake_case name, and
// the name found.
func either(o ast.Object, k [2]*ast.Term) (*ast.Term, string) {
	for _, key := range k {
		if t := get(o, key); t != nil {
			return t, string(key.Value.(ast.String))
		}
	}
	return nil, ""
}

// geminiRequest returns the request of a record and its pointer: the record
// itself when it has a contents list, else its request member when that has
// one.
func geminiRequest(rec ast.Object) (ast.Object, string) {
	if arrayField(rec, keyContents) != nil {
		return rec, ""
	}
	if req := objectField(rec, keyRequest); arrayField(req, keyContents) != nil {
		return req, "/request"
	}
	return nil, ""
}

type geminiBuilder struct {
	file string
	opts Options
}

func (b geminiBuilder) Add(line int, rec ast.Object) *Document {
	req, base := geminiRequest(rec)
	var ms []message
	if si, name := either(req, keySysInstr); si != nil {
		m := message{raw: si, role: "system", line: line, pathTerm: strTerm(base + "/" + name), chatIndex: -1}
		m.obj, _ = si.Value.(ast.Object)
		if m.obj != nil {
			m.text, m.hasContent = geminiText(arrayField(m.obj, keyParts))
		} else {
			m.text, m.hasContent = contentText(si) // a bare string, as some SDKs accept
		}
		ms = append(ms, m)
	}
	if contents := arrayField(req, keyContents); contents != nil {
		for i := 0; i < contents.Len(); i++ {
			ms = geminiTurn(ms, contents.Elem(i), line, pointerIndex(base+"/contents", i))
		}
	}
	geminiIDs(ms)
	id := stringField(rec, keyKey) // Gemini API batch lines name their request by key
	if id == "" {
		id = fallbackID(b.file, line)
	}
	d := newDoc(Gemini, b.file, line, id, b.opts)
	d.Value = newDocument(d, detectMode(ms, b.opts.ToolCalls), ms, geminiTools(req, base), emptyArray, ast.NewTerm(rec))
	return d
}

func (geminiBuilder) Finish() *Document { return nil }

// geminiTurn appends one content: a model turn with its calls, or a user
// turn split into its function responses and the rest.
func geminiTurn(ms []message, raw *ast.Term, line int, path string) []message {
	o, _ := raw.Value.(ast.Object)
	m := message{raw: raw, obj: o, line: line, pathTerm: strTerm(path), chatIndex: -1}
	if o == nil {
		return append(ms, m)
	}
	role := stringField(o, keyRole)
	switch role {
	case "model":
		m.role = "assistant"
	case "function": // the older spelling of a turn of function responses
		m.role = "user"
	default:
		m.role = role
	}
	parts := arrayField(o, keyParts)
	m.text, m.hasContent = geminiText(parts)
	rest := parts == nil
	for j := 0; parts != nil && j < parts.Len(); j++ {
		p, _ := parts.Elem(j).Value.(ast.Object)
		pp := pointerIndex(path+"/parts", j)
		if fc, _ := either(p, keyFunctionCall); fc != nil && m.role == "assistant" {
			c, _ := fc.Value.(ast.Object)
			id := stringTerm(c, keyID)
			if id.Value.(ast.String) == "" {
				id = strTerm(fmt.Sprintf("gemini-%d-%d", len(ms), len(m.calls)))
			}
			args, has := geminiArgs(c)
			m.addCall(id, stringTerm(c, keyName), args, has, strTerm(pp), "")
			continue
		}
		if fr, _ := either(p, keyFunctionResp); fr != nil && m.role != "assistant" {
			r, _ := fr.Value.(ast.Object)
			t := message{raw: parts.Elem(j), obj: p, role: "tool", line: line, pathTerm: strTerm(pp), chatIndex: -1}
			resp := get(r, keyResponse)
			t.text, t.hasContent = contentText(resp)
			if id := stringTerm(r, keyID); id.Value.(ast.String) != "" {
				t.callID = id
			}
			ms = append(ms, t)
			continue
		}
		rest = true
	}
	if rest || m.role == "assistant" {
		ms = append(ms, m)
	}
	return ms
}

func geminiArgs(c ast.Object) (*ast.Term, bool) {
	t := get(c, keyArgs)
	if t == nil {
		return nil, false
	}
	_, null := t.Value.(ast.Null)
	return t, !null
}

// geminiText joins the text parts of a content; it has content when any
// part holds text or data (not a call or a response).
func geminiText(parts *ast.Array) (string, bool) {
	if parts == nil {
		return "", false
	}
	var texts []string
	has := false
	for j := 0; j < parts.Len(); j++ {
		p, _ := parts.Elem(j).Value.(ast.Object)
		if t := get(p, keyText); t != nil {
			if s, ok := t.Value.(ast.String); ok {
				texts = append(texts, string(s))
				has = has || s != ""
				continue
			}
		}
		for _, k := range geminiContentParts {
			if get(p, k) != nil {
				has = true
			}
		}
	}
	return strings.Join(texts, "\n"), has
}

// geminiIDs pairs responses without an id with the calls of their block,
// by position.
func geminiIDs(ms []message) {
	turn, k := -1, 0
	for i := range ms {
		m := &ms[i]
		switch m.role {
		case "assistant":
			turn, k = i, 0
		case "tool":
			if m.callID == nil && turn >= 0 && k < len(ms[turn].calls) {
				m.callID = get(ms[turn].calls[k].Value.(ast.Object), keyID)
			}
			k++
		}
	}
}

// geminiTools flattens the function declarations of every tools entry.
func geminiTools(req ast.Object, base string) *ast.Term {
	tools := arrayField(req, KeyTools)
	if tools == nil {
		return emptyArray
	}
	var out []*ast.Term
	for i := 0; i < tools.Len(); i++ {
		t, _ := tools.Elem(i).Value.(ast.Object)
		decls, name := either(t, keyFunctionDecls)
		var arr *ast.Array
		if decls != nil {
			arr, _ = decls.Value.(*ast.Array)
		}
		for j := 0; arr != nil && j < arr.Len(); j++ {
			out = append(out, toolTerm(len(out), arr.Elem(j), pointerIndex(fmt.Sprintf("%s/tools/%d/%s", base, i, name), j)))
		}
	}
	return ast.ArrayTerm(out...)
}

// geminiLayout writes fixed contents as Gemini contents.
var geminiLayout = &Layout{
	ContentKey:     "parts",
	Content:        geminiParts,
	ElementContent: geminiResponseContent,
	Message:        geminiMessage,
	SetCallID: func(call *jsonv.Object, id string) error {
		return setWrapped(call, "functionCall", "function_call", id)
	},
	SetResultID: func(res *jsonv.Object, id string) error {
		return setWrapped(res, "functionResponse", "function_response", id)
	},
}

func setWrapped(part *jsonv.Object, camel, snake, id string) error {
	for _, k := range []string{camel, snake} {
		if v, ok := part.Get(k); ok {
			if o, ok := v.(*jsonv.Object); ok {
				o.Set("id", id)
				return nil
			}
		}
	}
	return fmt.Errorf("the part has no %s object", camel)
}

// geminiResponseContent writes the content of a tool result into its
// functionResponse part: the response is the content when that is an
// object, else {"content": content} (a response is a JSON object in the
// API, and an inserted result is written so too). The part keeps its name
// and id; a part that is not a function response is left to ContentKey.
func geminiResponseContent(part *jsonv.Object, v jsonv.Value) (string, jsonv.Value, bool, error) {
	for _, k := range []string{"functionResponse", "function_response"} {
		cur, ok := part.Get(k)
		if !ok {
			continue
		}
		fr, ok := cur.(*jsonv.Object)
		if !ok {
			return "", nil, false, fmt.Errorf("the part's %s is not an object", k)
		}
		resp, ok := v.(*jsonv.Object)
		if !ok {
			resp = &jsonv.Object{}
			resp.Set("content", v)
		}
		out := &jsonv.Object{Members: append([]jsonv.Member(nil), fr.Members...)}
		out.Set("response", resp)
		return k, out, true, nil
	}
	return "", nil, false, nil
}

func geminiParts(v jsonv.Value) (jsonv.Value, error) {
	switch c := v.(type) {
	case string:
		p := &jsonv.Object{}
		p.Set("text", c)
		return []jsonv.Value{p}, nil
	case []jsonv.Value:
		return c, nil
	case nil:
		return []jsonv.Value{}, nil
	}
	return nil, errors.New("the content of a Gemini message is a list of parts; this is neither a string nor a list")
}

// geminiMessage turns an inserted message into a content: a message already
// written as one (it has parts) is kept; an OpenAI user, system or
// assistant message with text is mapped; a tool result needs the name of
// its function, which a Gemini functionResponse must carry.
func geminiMessage(v jsonv.Value) (jsonv.Value, error) {
	o, ok := v.(*jsonv.Object)
	if !ok {
		return nil, errors.New("the message is not an object")
	}
	if _, ok := o.Get("parts"); ok {
		return o, nil
	}
	role, _ := o.Get("role")
	content, _ := o.Get("content")
	out := &jsonv.Object{}
	switch role {
	case "user", "system":
		out.Set("role", "user")
	case "assistant":
		if calls, ok := o.Get("tool_calls"); ok && calls != nil {
			return nil, errors.New("an inserted assistant message with tool calls cannot be written as Gemini parts")
		}
		out.Set("role", "model")
	case "tool":
		name, _ := o.Get("name")
		if s, _ := name.(string); s == "" {
			return nil, errors.New("a Gemini functionResponse needs the function's name; the inserted tool message has none")
		}
		id, _ := o.Get("tool_call_id")
		resp := &jsonv.Object{}
		resp.Set("content", content)
		fr := &jsonv.Object{}
		if id != nil {
			fr.Set("id", id)
		}
		fr.Set("name", name)
		fr.Set("response", resp)
		part := &jsonv.Object{}
		part.Set("functionResponse", fr)
		out.Set("role", "user")
		out.Set("parts", []jsonv.Value{part})
		return out, nil
	default:
		return nil, fmt.Errorf("role %v has no Gemini equivalent", role)
	}
	parts, err := geminiParts(content)
	if err != nil {
		return nil, err
	}
	out.Set("parts", parts)
	return out, nil
}
