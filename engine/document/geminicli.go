package document

import (
	"strconv"

	"github.com/open-policy-agent/opa/v1/ast"
)

// GeminiCLI is a Gemini CLI chat session (~/.gemini/tmp/<project
// hash>/chats/session-*.json): one JSON object {"sessionId",
// "projectHash", "startTime", "lastUpdated", "messages": [{"id",
// "timestamp", "type": "user"|"gemini"|"info"|"error"|"warning",
// "content": string | [{"text"}], "thoughts", "tokens", "model",
// "toolCalls": [{"id", "name", "args", "result": [{"functionResponse":
// {"id", "name", "response"}}], "status", …}]}]}. Newer Gemini CLI
// versions write the same session as JSON Lines (session-*.jsonl): a
// header line with the session's members, then one message per line,
// {"$set": {…}} lines patching the header, and a message written again
// under the same id when its tool calls finish (the last copy is the
// message, in the place of the first).
//
// A gemini message's toolCalls are its tool calls; each call's
// functionResponse results are tool messages after it (the CLI sent them
// back to the model in the next user turn). info, error and warning
// messages are notices the CLI showed, never sent to the model: entries,
// not messages.
const GeminiCLI Format = "gemini-cli"

var geminiCLIAdapter = &Adapter{
	Format:     GeminiCLI,
	Summary:    `a Gemini CLI chat session: {"sessionId", "projectHash", "messages": [{"id", "type": "user"|"gemini"|…, "content", "toolCalls"}]} as one JSON document, or a header line, message lines and {"$set"} lines`,
	PerFile:    true,
	Detect:     isGeminiCLI,
	Shape:      `a Gemini CLI session {"sessionId": string, "projectHash": string, "messages": [...]} or its header line {"sessionId", "projectHash", "startTime"}`,
	NewBuilder: func(file string, opts Options) Builder { return &geminiCLI{file: file, opts: opts} },
	Header:     geminiCLIHeader,
	Unfixable: func(ast.Object) string {
		return "a Gemini CLI session keeps each message with its tool calls and their results in one object, which fix does not rewrite; check it, or convert it with convert --to openai"
	},
}

var (
	keyGCLISessionID   = ast.StringTerm("sessionId")
	keyGCLIProjectHash = ast.StringTerm("projectHash")
	keyGCLIStartTime   = ast.StringTerm("startTime")
	keyGCLIToolCalls   = ast.StringTerm("toolCalls")
	keyGCLIResult      = ast.StringTerm("result")
	keyGCLIFuncResp    = ast.StringTerm("functionResponse")
	keyGCLIResponse    = ast.StringTerm("response")
	keyGCLIOutput      = ast.StringTerm("output")
	keyGCLIError       = ast.StringTerm("error")
	keyGCLIArgs        = ast.StringTerm("args")
	keyGCLIParts       = ast.StringTerm("parts")
	keyGCLISet         = ast.StringTerm("$set")
)

// geminiCLIRoles maps a message type to the role it plays; the notices
// (info, error, warning) have none.
var geminiCLIRoles = map[string]string{"user": "user", "gemini": "assistant", "model": "assistant"}

var geminiCLINotices = map[string]bool{"info": true, "error": true, "warning": true}

// isGeminiCLI tells a session (or its JSONL header) by the two members the
// CLI names every session file with: a string sessionId and projectHash,
// with either the messages list or, in a header line, the start time.
func isGeminiCLI(rec ast.Object) bool {
	if !isStringMember(rec, keyGCLISessionID) || !isStringMember(rec, keyGCLIProjectHash) {
		return false
	}
	return arrayField(rec, KeyMessages) != nil || (get(rec, keyGCLIStartTime) != nil && get(rec, KeyMessages) == nil)
}

// geminiCLIHeader holds a JSON Lines session to its header line, for
// repair: a file whose first line is a message record or a $set patch lost
// its header, which a reader needs to know the session.
var geminiCLIHeader = &Header{
	Valid: isGeminiCLI,
	Entry: func(rec ast.Object) bool {
		if get(rec, keyGCLISet) != nil {
			return rec.Len() == 1
		}
		_, message := geminiCLIRoles[stringField(rec, keyType)]
		return (message || geminiCLINotices[stringField(rec, keyType)]) && isStringMember(rec, keyID) &&
			isStringMember(rec, keyTimestamp) && get(rec, keyContent) != nil && get(rec, keyRole) == nil && get(rec, keyMessage) == nil
	},
}

type geminiCLI struct {
	file    string
	opts    Options
	first   int
	id      string
	header  *ast.Term
	entries []*ast.Term
	// msgs are the message records in order, each the last copy of its id.
	msgs []geminiCLIRecord
	byID map[string]int
	un   unmappedSet
}

type geminiCLIRecord struct {
	line int
	path string // the message's pointer in its line: "" for a JSONL line
	obj  ast.Object
	raw  *ast.Term
}

func (g *geminiCLI) Add(line int, rec ast.Object) *Document {
	if g.first == 0 {
		g.first = line
	}
	switch {
	case g.header == nil && isGeminiCLI(rec):
		g.header = ast.NewTerm(rec)
		g.id = stringField(rec, keyGCLISessionID)
		g.un.addOthers(line, rec, "", "messages")
		if msgs := arrayField(rec, KeyMessages); msgs != nil {
			for i := 0; i < msgs.Len(); i++ {
				o, _ := msgs.Elem(i).Value.(ast.Object)
				g.record(line, pointerIndex("/messages", i), o, msgs.Elem(i))
			}
		}
		return nil
	case get(rec, keyGCLISet) != nil:
		g.entry(line, "$set", rec)
		return nil
	}
	g.record(line, "", rec, ast.NewTerm(rec))
	return nil
}

// entry adds a line to the entries.
func (g *geminiCLI) entry(line int, typ string, rec ast.Object) {
	e := ast.NewObjectWithCapacity(5)
	e.Insert(KeyIndex, intTerm(len(g.entries)))
	e.Insert(KeyLine, intTerm(line))
	e.Insert(keyType, strTerm(typ))
	if t := get(rec, keyTimestamp); t != nil {
		e.Insert(keyTimestamp, t)
	}
	e.Insert(KeyRaw, ast.NewTerm(rec))
	g.entries = append(g.entries, ast.NewTerm(e))
}

// record adds one message record; a later copy of an id replaces the
// earlier one in its place.
func (g *geminiCLI) record(line int, path string, o ast.Object, raw *ast.Term) {
	if path == "" {
		g.entry(line, stringField(o, keyType), o)
	}
	r := geminiCLIRecord{line: line, path: path, obj: o, raw: raw}
	id := stringField(o, keyID)
	if id != "" {
		if g.byID == nil {
			g.byID = map[string]int{}
		}
		if i, ok := g.byID[id]; ok {
			g.msgs[i] = r
			return
		}
		g.byID[id] = len(g.msgs)
	}
	g.msgs = append(g.msgs, r)
}

// messages turns the message records into messages: a user or gemini
// message, then the results of its tool calls.
func (g *geminiCLI) messages() []message {
	var ms []message
	for _, r := range g.msgs {
		typ := stringField(r.obj, keyType)
		if geminiCLINotices[typ] {
			g.un.add(r.line, typ+" messages (notices the CLI showed, never sent to the model)")
			continue
		}
		role, known := geminiCLIRoles[typ]
		if !known {
			role = typ // not a role: the rules report it, rather than a guess
		}
		pathTerm := rootPath
		if r.path != "" {
			pathTerm = strTerm(r.path)
		}
		m := message{raw: r.raw, obj: r.obj, role: role, line: r.line, pathTerm: pathTerm, chatIndex: -1, ownCalls: true}
		content := get(r.obj, keyContent)
		if content == nil {
			content = get(r.obj, keyGCLIParts)
		}
		m.text, m.hasContent = contentText(content)
		if content != nil {
			if _, ok := content.Value.(ast.String); ok {
				m.textTerm = content
			}
		}
		if r.obj != nil {
			g.un.addOthers(r.line, r.obj, "messages[].", "type", "content", "parts", "toolCalls", "thoughts")
		}
		calls := arrayField(r.obj, keyGCLIToolCalls)
		var results []message
		for k := 0; calls != nil && k < calls.Len(); k++ {
			c, _ := calls.Elem(k).Value.(ast.Object)
			cp := r.path + "/toolCalls/" + strconv.Itoa(k)
			args, has := get(c, keyGCLIArgs), false
			if args != nil {
				_, null := args.Value.(ast.Null)
				has = !null
			}
			m.addCall(stringTerm(c, keyID), stringTerm(c, keyName), args, has, strTerm(cp), "")
			if c != nil {
				g.un.addOthers(r.line, c, "toolCalls[].", "id", "name", "args", "result", "status")
			}
			results = append(results, geminiCLIResults(c, r.line, cp)...)
		}
		ms = append(ms, m)
		ms = append(ms, results...)
	}
	return ms
}

// geminiCLIResults reads a call's result parts as tool messages: the
// output of each functionResponse's response (or its error), flagged when
// the call's status is not success.
func geminiCLIResults(c ast.Object, line int, callPath string) []message {
	res := arrayField(c, keyGCLIResult)
	var out []message
	for j := 0; res != nil && j < res.Len(); j++ {
		p, _ := res.Elem(j).Value.(ast.Object)
		fr := objectField(p, keyGCLIFuncResp)
		if fr == nil {
			continue // a part that is not a response (the CLI adds none today)
		}
		rp := callPath + "/result/" + strconv.Itoa(j)
		t := message{raw: res.Elem(j), obj: p, role: "tool", line: line, pathTerm: strTerm(rp), chatIndex: -1, ownCalls: true}
		resp := get(fr, keyGCLIResponse)
		var ro ast.Object
		if resp != nil { // a functionResponse without its response
			ro, _ = resp.Value.(ast.Object)
		}
		switch {
		case get(ro, keyGCLIOutput) != nil:
			t.text, t.hasContent = contentText(get(ro, keyGCLIOutput))
		case get(ro, keyGCLIError) != nil:
			t.text, t.hasContent = contentText(get(ro, keyGCLIError))
		case resp != nil:
			t.text, t.hasContent = resp.String(), true
		}
		id := stringTerm(fr, keyID)
		if id.Value.(ast.String) == "" {
			id = stringTerm(c, keyID)
		}
		t.callID = id
		if st := stringField(c, keyStatus); st != "" {
			t.isError = boolTerm(st != "success" || get(ro, keyGCLIError) != nil)
		}
		out = append(out, t)
	}
	return out
}

func (g *geminiCLI) Finish() *Document {
	if g.first == 0 {
		return nil
	}
	ms := g.messages()
	d := newDoc(GeminiCLI, g.file, g.first, g.id, g.opts)
	if d.ID == "" {
		d.ID = fallbackID(g.file, g.first)
	}
	raw := g.header
	if raw == nil {
		raw = ast.NullTerm()
	}
	mode := detectMode(ms, g.opts.ToolCalls)
	d.Value = newDocument(d, mode, ms, emptyArray, ast.ArrayTerm(g.entries...), raw)
	d.Unmapped = g.un.list("Gemini CLI members")
	return d
}
