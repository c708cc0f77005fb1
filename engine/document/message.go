package document

import (
	"strings"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/open-policy-agent/opa/v1/ast"
)

// message is a message on its way to normalization. The first pass reads role
// and text (enough to decide the record's mode); the second builds the object.
type message struct {
	raw        *ast.Term
	obj        ast.Object // nil when the message is not an object
	role       string
	roleTerm   *ast.Term // the raw role term when it can be reused as is
	text       string
	textTerm   *ast.Term // the raw content term when it is the text itself
	callID     *ast.Term // tool_call_id as given, nil when absent
	line       int
	pathTerm   *ast.Term // the message's JSON Pointer (pathString)
	chatIndex  int       // the index of a chat record's message (path "/messages/i"), else -1
	calls      []*ast.Term
	stopReason *ast.Term // stop_reason or stopReason when a string, else nil
	toolCalls  *ast.Term // the tool_calls member as given, nil when absent or null
	// isError is a tool result's explicit error flag when its format has one
	// and it is a boolean (pi/OpenClaw isError, an Anthropic tool_result
	// block's is_error), else nil: the flag decides whether the result
	// failed, where other formats leave rules to read the payload.
	isError *ast.Term
	// lines are the source lines of a message written over several lines
	// (a Claude Code assistant message, a Codex turn's items), in order;
	// nil for a message on one line.
	lines []int
	// order holds the positional ids of the calls without an id that a
	// result answers (orderIDs); nil for the messages that have none.
	order *orderState
	// fields, when set, leaves the call members no rule reads out of the
	// calls the second pass builds (Options.Fields).
	fields *Fields
	// The flags last, side by side: a record of a million messages holds a
	// million of these structs while its document is built, and each
	// field's padding counts (TestMessageStructSize).
	hasContent bool
	// valueText says the text is the member value, not content (ShareGPT).
	valueText bool
	// ownCalls marks calls the adapter read itself (each with its own line):
	// the structured pass leaves them as they are.
	ownCalls bool
	// callViews builds the calls as astjson views: only the YAML evaluator
	// reads them (the messages are MessageValues, see buildMessagesFields).
	callViews bool
}

// orderState is a message's positional call ids, in order, and the next to
// give.
type orderState struct {
	ids  []*ast.Term
	next int
}

// pathString is the message's JSON Pointer: the string of pathTerm, which
// the message holds once.
func (m *message) pathString() string {
	if m.pathTerm == nil {
		return ""
	}
	s, _ := m.pathTerm.Value.(ast.String)
	return string(s)
}

// readMessage does the first pass over one message as given.
func readMessage(raw *ast.Term, line int, path *ast.Term, chatIndex int) message {
	o, _ := raw.Value.(ast.Object)
	return readMessageContent(raw, o, get(o, keyContent), line, path, chatIndex)
}

// readMessageContent is readMessage for a caller that has looked up the
// message's object o and its content member already: an OPA object hashes
// the key on every lookup, and chat reads every message.
func readMessageContent(raw *ast.Term, o ast.Object, content *ast.Term, line int, path *ast.Term, chatIndex int) message {
	m := message{raw: raw, line: line, pathTerm: path, chatIndex: chatIndex}
	m.obj = o
	if m.obj == nil {
		return m
	}
	if t := get(m.obj, keyRole); t != nil {
		if r, ok := t.Value.(ast.String); ok {
			m.role, m.roleTerm = string(r), t
		}
	}
	m.text, m.hasContent = contentText(content)
	if content != nil {
		if _, ok := content.Value.(ast.String); ok {
			m.textTerm = content // a string content is the text: share the term
		}
	}
	// Why a turn ended is an assistant's: other roles' fields of that name
	// are not read.
	for _, k := range [...]*ast.Term{keyStopReason, keyStopReasonc} {
		if m.role != "assistant" {
			break
		}
		if t := get(m.obj, k); t != nil {
			if _, ok := t.Value.(ast.String); ok {
				m.stopReason = t
				break
			}
		}
	}
	m.toolCalls = toolCallsOf(m.obj)
	switch m.role {
	case "toolResult": // pi / OpenClaw transcripts
		m.role, m.roleTerm = "tool", nil
		m.callID = firstPresent(m.obj, keyToolCallIDc, keyToolUseID, keyToolCallID)
		m.isError = boolMember(m.obj, keyIsErrorc)
	case "tool":
		m.callID = firstPresent(m.obj, keyToolCallID, keyToolCallIDc, keyToolUseID)
	}
	return m
}

// boolMember returns o's member k when it is a boolean, else nil.
func boolMember(o ast.Object, k *ast.Term) *ast.Term {
	if t := get(o, k); t != nil {
		if _, ok := t.Value.(ast.Boolean); ok {
			return t
		}
	}
	return nil
}

func firstPresent(o ast.Object, keys ...*ast.Term) *ast.Term {
	for _, k := range keys {
		if t := get(o, k); t != nil {
			if _, null := t.Value.(ast.Null); !null {
				return t
			}
		}
	}
	return nil
}

// contentText joins the text of a content value: a string as is; for a list
// of parts, each string part and each part's "text" (or "value") member,
// separated by newlines. It also reports whether there is any content.
func contentText(c *ast.Term) (string, bool) {
	if c == nil {
		return "", false
	}
	switch v := c.Value.(type) {
	case ast.String:
		return string(v), v != ""
	case *ast.Array:
		if v.Len() == 0 {
			return "", false
		}
		if v.Len() == 1 {
			s, _ := partText(v.Elem(0))
			return s, true
		}
		var b strings.Builder
		first := true
		v.Foreach(func(p *ast.Term) {
			s, ok := partText(p)
			if !ok {
				return
			}
			if !first {
				b.WriteByte('\n')
			}
			first = false
			b.WriteString(s)
		})
		return b.String(), true
	case ast.Null:
		return "", false
	case ast.Object:
		return "", v.Len() > 0
	}
	return "", true
}

func partText(p *ast.Term) (string, bool) {
	switch v := p.Value.(type) {
	case ast.String:
		return string(v), true
	case ast.Object:
		if get(v, keyType) != nil && !isTextPart(stringField(v, keyType)) {
			return "", false
		}
		if t := get(v, keyText); t != nil {
			s, ok := t.Value.(ast.String)
			return string(s), ok
		}
		if t := get(v, keyValue); t != nil {
			s, ok := t.Value.(ast.String)
			return string(s), ok
		}
	}
	return "", false
}

// isTextPart reports whether a content part of this type holds text:
// "text", and the "input_text"/"output_text" of the OpenAI Responses API.
func isTextPart(typ string) bool { return typ == "text" || strings.HasSuffix(typ, "_text") }

// Content block types that carry a tool call in agent transcripts and
// Anthropic-style content.
var callBlockTypes = map[string]bool{"toolCall": true, "toolUse": true, "functionCall": true,
	"tool_use": true, "tool_call": true, "function_call": true}

// toolCallsOf returns the tool_calls member of a message as given, nil when
// it is absent or null.
func toolCallsOf(o ast.Object) *ast.Term {
	t := get(o, KeyToolCalls)
	if t == nil {
		return nil
	}
	if _, null := t.Value.(ast.Null); null {
		return nil
	}
	return t
}

// callList returns the message's tool_calls when it is a list.
func (m *message) callList() *ast.Array {
	if m.toolCalls == nil {
		return nil
	}
	a, _ := m.toolCalls.Value.(*ast.Array)
	return a
}

// structuredCalls reads the tool calls a message carries as data: OpenAI
// tool_calls entries that are objects, and tool-call content blocks.
func (m *message) structuredCalls() {
	if m.obj == nil {
		return
	}
	if calls := m.callList(); calls != nil {
		for i := 0; i < calls.Len(); i++ {
			c, ok := calls.Elem(i).Value.(ast.Object)
			if !ok {
				continue
			}
			fn := objectField(c, keyFunction)
			name := stringTerm(c, keyName)
			args, hasInput := callInput(c)
			if fn != nil {
				name = stringTerm(fn, keyName)
				if a, ok := callInput(fn); ok || args == nil {
					args, hasInput = a, ok
				}
			}
			m.addCall(m.nextOrderID(stringTerm(c, keyID)), name, args, hasInput, m.callPath(i), "")
		}
	}
	if parts := arrayField(m.obj, keyContent); parts != nil {
		base := m.pathString() + "/content"
		for i := 0; i < parts.Len(); i++ {
			b, ok := parts.Elem(i).Value.(ast.Object)
			if !ok || !callBlockTypes[stringField(b, keyType)] {
				continue
			}
			id, path := m.nextOrderID(stringTerm(b, keyID)), strTerm(pointerIndex(base, i))
			if v := get(b, keyValue); v != nil && get(b, keyName) == nil {
				m.addValueCall(id, v, path) // LLaMA-Factory: the call as a JSON string
				continue
			}
			args, hasInput := callInput(b)
			m.addCall(id, stringTerm(b, keyName), args, hasInput, path, "")
		}
	}
}

// callInput returns the call's arguments (or input) as given and whether it
// has any: present and not null.
func callInput(o ast.Object) (*ast.Term, bool) {
	for _, k := range [...]*ast.Term{keyArguments, keyInput} {
		if t := get(o, k); t != nil {
			if _, null := t.Value.(ast.Null); !null {
				return t, true
			}
		}
	}
	if t := get(o, keyArguments); t != nil {
		return t, false
	}
	if t := get(o, keyInput); t != nil {
		return t, false
	}
	return nil, false
}

// addCall adds a normalized call. id, name and path are string terms, the
// raw call's own terms where it has them, so that they are not built again.
// more are members of the call's own (its line, free_form) that come last,
// given here rather than inserted after: an insert into a view builds its
// object.
func (m *message) addCall(id, name, args *ast.Term, hasInput bool, path *ast.Term, parseErr string, more ...[2]*ast.Term) {
	if m.fields != nil {
		m.addPrunedCall(id, name, args, hasInput, path, parseErr, more...)
		return
	}
	kv := [9][2]*ast.Term{
		{KeyIndex, intTerm(len(m.calls))},
		{keyID, id},
		{keyName, name},
		{keyHasInput, boolTerm(hasInput)},
		{KeyPath, path},
	}
	n := 5
	if args != nil {
		kv[n] = [2]*ast.Term{keyArguments, args}
		n++
	}
	if parseErr != "" {
		kv[n] = [2]*ast.Term{keyParseError, strTerm(parseErr)}
		n++
	}
	n += copy(kv[n:], more)
	if m.callViews {
		m.calls = append(m.calls, ast.NewTerm(astjson.NewObjectView(kv[:n]...)))
		return
	}
	o := ast.NewObject(kv[:n]...)
	m.calls = append(m.calls, ast.NewTerm(o))
}

// buildMessages runs the second pass: tool calls for the record's mode, the
// turn of each message, and the normalized objects.
func buildMessages(ms []message, mode string) *ast.Term { return buildMessagesFields(ms, mode, nil) }

// buildMessagesFields is buildMessages with the members of each message no
// rule reads left out (Options.Fields; nil keeps every member).
func buildMessagesFields(ms []message, mode string, f *Fields) *ast.Term {
	if !f.All() && !f.lookup { // the lookup reads the calls' ids and names
		for i := range ms {
			ms[i].fields = f
		}
	}
	if !f.All() && !f.plainMessages && f.messages {
		for i := range ms {
			ms[i].callViews = true
		}
	}
	if mode == modeInline {
		parseInline(ms) // also gives inline results their tool_call_id
	} else {
		orderIDs(ms) // results answer calls without ids by order
	}
	if mode != modeInline && (f.All() || f.toolCalls || f.lookup) {
		for i := range ms {
			if !ms[i].ownCalls {
				ms[i].structuredCalls()
			}
		}
	}
	terms := make([]*ast.Term, len(ms))
	// The message terms of a record are allocated in one block: one
	// allocation per record instead of one per message (they live as long
	// as the messages array that holds them). Where messages may be shared
	// (f.shared) most need no term of their own, and each that does gets
	// one.
	var block []ast.Term
	if f.All() || f.shared == nil {
		block = make([]ast.Term, len(ms))
	}
	var views []MessageValue // the pruned messages' views, allocated in one block too
	turn := -1
	// The messages of a record share its line: one term serves them all
	// (only small numbers are interned).
	line, lineTerm := -1, (*ast.Term)(nil)
	for i := range ms {
		m := &ms[i]
		if m.role == "assistant" {
			turn = i
		}
		if m.line != line {
			line, lineTerm = m.line, intTerm(m.line)
		}
		calls := emptyArray
		if len(m.calls) > 0 {
			calls = ast.ArrayTerm(m.calls...)
		}
		if !f.All() {
			if terms[i] = f.shared.sharedMessage(m, calls, f); terms[i] == nil {
				terms[i] = termIn(block, i, prunedView(&views, len(ms), m, i, turn, calls, lineTerm, f))
			}
			continue
		}
		// One NewObject call: it allocates the members in one block, where
		// Insert allocates per member.
		kv := [13][2]*ast.Term{
			{KeyIndex, intTerm(i)},
			{keyRole, orString(m.roleTerm, m.role)},
			{keyText, orString(m.textTerm, m.text)},
			{keyHasContent, boolTerm(m.hasContent)},
			{KeyToolCalls, calls},
			{keyTurn, intTerm(turn)},
			{KeyLine, lineTerm},
			{KeyPath, m.pathTerm},
			{KeyRaw, m.raw},
		}
		n := 9
		if m.callID != nil {
			kv[n] = [2]*ast.Term{keyToolCallID, m.callID}
			n++
		}
		if m.stopReason != nil {
			kv[n] = [2]*ast.Term{keyStopReason, m.stopReason}
			n++
		}
		if m.isError != nil {
			kv[n] = [2]*ast.Term{keyIsError, m.isError}
			n++
		}
		if len(m.lines) > 1 {
			kv[n] = [2]*ast.Term{keyLines, linesTerm(m.lines)}
			n++
		}
		terms[i] = termIn(block, i, ast.NewObject(kv[:n]...))
	}
	return ast.ArrayTerm(terms...)
}

// termIn returns a term for v: block[i] when there is a block, else a
// term of its own.
func termIn(block []ast.Term, i int, v ast.Value) *ast.Term {
	if block == nil {
		return ast.NewTerm(v)
	}
	block[i].Value = v
	return &block[i]
}

// addCallAt adds a call that lives on line of its own: the call carries
// that line when it differs from its message's, and more after it.
func (m *message) addCallAt(line int, id, name, args *ast.Term, hasInput bool, path *ast.Term, more ...[2]*ast.Term) {
	if line == m.line {
		m.addCall(id, name, args, hasInput, path, "", more...)
		return
	}
	var kv [3][2]*ast.Term // addCallItem gives one more at most
	kv[0] = [2]*ast.Term{KeyLine, intTerm(line)}
	n := 1 + copy(kv[1:], more)
	m.addCall(id, name, args, hasInput, path, "", kv[:n]...)
}

func linesTerm(lines []int) *ast.Term {
	ts := make([]*ast.Term, len(lines))
	for i, l := range lines {
		ts[i] = intTerm(l)
	}
	return ast.ArrayTerm(ts...)
}

// orString returns t when it is set, else a new term for s.
func orString(t *ast.Term, s string) *ast.Term {
	if t != nil {
		return t
	}
	return strTerm(s)
}
