package document

import (
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// Codex is a Codex CLI rollout file: {timestamp, type, payload} lines.
const Codex Format = "codex"

var codexAdapter = &Adapter{
	Format:     Codex,
	Summary:    `a Codex CLI rollout: {"timestamp", "type": "session_meta"|"turn_context"|"event_msg"|"response_item", "payload"} lines; messages come from the response items`,
	PerFile:    true,
	RepeatsIDs: true,
	Detect:     isCodexLine,
	Shape:      `a rollout line {"timestamp", "type": "session_meta"|"response_item"|…, "payload": {…}} as its first line`,
	NewBuilder: func(file string, opts Options) Builder { return &codex{file: file, opts: opts} },
	Reads:      codexReads,
	// Sent to an API that rejects a tool-call id used twice: openai-tools
	// first renames reused ids (with their results) and moves stray results
	// back, then transcript pairs results in call order and synthesises the
	// missing ones.
	Cleanup: []string{"openai-tools", "transcript"},
	Entries: &EntryLayout{
		Message: "payload",
		Order:   []string{"timestamp", "type", "payload"},
		Type:    func(string) string { return "response_item" },
	},
	// A call item names its call by call_id, as does its output item.
	IDs: &IDMembers{Call: "call_id", Results: []string{"call_id"}},
}

var (
	keyPayload     = ast.StringTerm("payload")
	keyCallIDu     = ast.StringTerm("call_id")
	keyOutput      = ast.StringTerm("output")
	keyAction      = ast.StringTerm("action")
	keyPayloadType = ast.StringTerm("payload_type")
	payloadPath    = ast.StringTerm("/payload")
)

// codexLineTypes are the rollout line types a Codex CLI writes.
var codexLineTypes = map[string]bool{"session_meta": true, "turn_context": true, "event_msg": true,
	"response_item": true, "compacted": true}

func isCodexLine(rec ast.Object) bool {
	return codexLineTypes[stringField(rec, keyType)] && objectField(rec, keyPayload) != nil
}

// codex gathers a rollout. Codex logs most turns twice, as an event_msg
// (what the UI showed) and as a response_item (what the model was sent);
// the messages are built from the response items only.
type codex struct {
	file    string
	opts    Options
	first   int
	id      string
	entries []*ast.Term
	ms      []message
	open    bool // the last message is an assistant turn later call items join
	// views says lines were decoded as views (codexReads). The first line
	// may not be one though the others are: a check hands the builder the
	// object detection decoded whole.
	views bool
	// un names the reasoning items, which no message holds (convert notes
	// them: Document.Unmapped).
	un unmappedSet
	// terms is where the entries' terms (the entry, its raw line) are
	// carved from: two a line, allocated by the block rather than one by one.
	terms []ast.Term
}

// Expect sizes the entries (one a line) and the messages for a rollout of
// n lines. A message is a response item (a message, a call output, a turn's
// calls), at most one a line; most rollouts give one for every two to
// three lines, the rest being events, so a half is room without a growth
// for most and at worst one more.
func (c *codex) Expect(n int) {
	if c.entries == nil && c.ms == nil && n > 0 {
		c.entries = make([]*ast.Term, 0, n)
		c.ms = make([]message, 0, n/2+1)
	}
}

// term returns a term for v from the builder's block. The terms live as
// long as the entries array, which holds them all.
func (c *codex) term(v ast.Value) *ast.Term {
	if len(c.terms) == 0 {
		c.terms = make([]ast.Term, codexTermBlock)
	}
	t := &c.terms[0]
	c.terms = c.terms[1:]
	t.Value = v
	return t
}

// codexTermBlock is the number of terms the builder allocates at once: a
// block of 6 KiB, so a short rollout wastes little.
const codexTermBlock = 256

func (c *codex) Add(line int, rec ast.Object) *Document {
	if c.first == 0 {
		c.first = line
	}
	typ := stringField(rec, keyType)
	p := objectField(rec, keyPayload)
	ptype := stringField(p, keyType)
	if typ == "session_meta" && c.id == "" {
		c.id = stringField(p, keyID)
	}
	var kv [6][2]*ast.Term
	n := 0
	add := func(k, v *ast.Term) { kv[n] = [2]*ast.Term{k, v}; n++ }
	add(KeyIndex, intTerm(len(c.entries)))
	add(KeyLine, intTerm(line))
	// The entry's type and payload_type are the line's own string terms
	// (stringTerm): no term more per entry.
	add(keyType, stringTerm(rec, keyType))
	if ptype != "" {
		add(keyPayloadType, stringTerm(p, keyType))
	}
	if t := get(rec, keyTimestamp); t != nil {
		add(keyTimestamp, t)
	}
	add(KeyRaw, c.term(rec))
	var e ast.Object
	_, view := rec.(*astjson.ObjectView)
	c.views = c.views || view
	if view {
		// The line was decoded as a view (codexReads): so is its entry,
		// which Document.Materialized builds with the line.
		e = astjson.NewObjectView(kv[:n]...)
	} else {
		e = ast.NewObject(kv[:n]...)
	}
	c.entries = append(c.entries, c.term(e))
	if typ == "response_item" && p != nil {
		c.item(line, get(rec, keyPayload), p, ptype, view)
	}
	return nil
}

// item adds one response item: a message, a call (joining the assistant
// turn before it, so parallel calls are one message), or a call's output.
// views says the line is a view (codexReads): its calls are views too.
func (c *codex) item(line int, raw *ast.Term, p ast.Object, ptype string, views bool) {
	switch ptype {
	case "message":
		m := readMessage(raw, line, payloadPath, -1)
		m.ownCalls = true
		c.ms = append(c.ms, m)
		c.open = m.role == "assistant"
	case "function_call", "custom_tool_call", "local_shell_call":
		c.ms = addCallItem(c.ms, c.open, raw, p, ptype, line, "/payload", payloadPath, views)
		c.open = true
	case "function_call_output", "custom_tool_call_output":
		m := message{raw: raw, obj: p, role: "tool", line: line, pathTerm: payloadPath, chatIndex: -1, ownCalls: true}
		out := get(p, keyOutput)
		m.text, m.hasContent = contentText(out)
		if out != nil {
			if _, ok := out.Value.(ast.String); ok {
				m.textTerm = out
			}
		}
		m.callID = firstPresent(p, keyCallIDu)
		// Whether the call failed (an exit code in the output text, or in
		// the exec_command_end event of the call) is the integrity pack's
		// decision (tool-result-flagged), not the adapter's: the output
		// has no error flag of its own.
		c.ms = append(c.ms, m)
		c.open = false
	case "reasoning":
		// The model's reasoning between its turns (a summary, and the
		// encrypted content): no message of the conversation, and no
		// place in an example.
		c.un.add(line, "reasoning items")
	}
}

// freeForm is the member that marks a custom tool's call.
var freeForm = [1][2]*ast.Term{{keyFreeForm, ast.BooleanTerm(true)}}

// localShell names a local_shell_call, which has no name of its own.
var localShell = ast.StringTerm("local_shell")

func (c *codex) Finish() *Document {
	if c.first == 0 {
		return nil
	}
	d := newDoc(Codex, c.file, c.first, c.id, c.opts)
	if d.ID == "" {
		d.ID = fallbackID(c.file, c.first)
	}
	mode := modeStructured
	if c.opts.ToolCalls != "" {
		mode = c.opts.ToolCalls
	}
	views := c.views
	if views {
		// The lines were decoded as views (codexReads): only the YAML
		// evaluator reads the document, so its messages are
		// MessageValues too, each with every member (the document is
		// whole), and Materialized builds them, the entries and the
		// lines for any other reader.
		d.fields = everyMember
	}
	d.Value = newDocument(d, mode, c.ms, emptyArray, ast.ArrayTerm(c.entries...), ast.NullTerm())
	d.fields, d.views = nil, views
	d.Unmapped = c.un.list("Codex")
	return d
}

// addCallItem adds a Responses API call item p (function_call,
// custom_tool_call, local_shell_call: a Codex rollout's payload, or an item
// of a Responses input list) to the assistant turn open at the end of ms,
// opening one when none is, so that parallel calls are one message. views
// builds the call as a view (only the YAML evaluator reads the document:
// Document.Materialized builds it for any other reader).
func addCallItem(ms []message, open bool, raw *ast.Term, p ast.Object, typ string, line int, path string, pathTerm *ast.Term, views bool) []message {
	if !open {
		ms = append(ms, message{raw: raw, obj: p, role: "assistant", line: line,
			pathTerm: pathTerm, chatIndex: -1, ownCalls: true})
	}
	m := &ms[len(ms)-1]
	m.callViews = m.callViews || views
	if m.line != line {
		if len(m.lines) == 0 {
			m.lines = []int{m.line}
		}
		m.lines = append(m.lines, line)
	}
	name := stringTerm(p, keyName)
	args, hasInput := callInput(p)
	if typ == "local_shell_call" {
		name = localShell
		args, hasInput = get(p, keyAction), get(p, keyAction) != nil
	}
	var more [][2]*ast.Term
	if typ == "custom_tool_call" {
		// A custom tool takes free-form text (an apply_patch body), not
		// JSON arguments: the document says so, for the rules on
		// arguments to leave it alone and convert to wrap it.
		more = freeForm[:]
	}
	m.addCallAt(line, stringTerm(p, keyCallIDu), name, args, hasInput, pathTerm, more...)
	return ms
}
