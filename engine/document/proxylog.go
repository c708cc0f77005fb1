package document

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

var proxyLogAdapter = &Adapter{
	Format:  ProxyLog,
	Summary: `request/response log of one session per file: {"timestamp", "session_id", "request": {"messages", "tools"}, "response"}`,
	PerFile: true,
	Detect: func(rec ast.Object) bool {
		req, _ := request(rec)
		return get(req, KeyMessages) != nil
	},
	Fits: func(rec ast.Object) string {
		if req, _ := request(rec); get(req, KeyMessages) == nil {
			return "a request object with messages (or request.body.messages)"
		}
		return ""
	},
	// Fixed on the line holding the squashed record, with OpenAI's
	// tool-message rules.
	Cleanup:    []string{"openai-tools"},
	NewBuilder: func(file string, opts Options) Builder { return newProxyLog(file, opts) },
}

// request returns a proxy-log line's request and its pointer: request, or
// request.body for gateways that log the HTTP body, when only the body holds
// the messages.
func request(rec ast.Object) (ast.Object, string) {
	req := objectField(rec, keyRequest)
	if req != nil && get(req, KeyMessages) == nil {
		if body := objectField(req, keyBody); body != nil && get(body, KeyMessages) != nil {
			return body, "/request/body"
		}
	}
	return req, "/request"
}

// proxyLog gathers the lines of one proxy-log session file and squashes them
// into one record, as a proxy-log converter does: the messages of the entry
// ProxyLogSelection selects (the last with the session's maximum message
// count) plus its response, and every entry's tools
// deduplicated by name, first definition wins. Only that one entry and small
// per-entry summaries are kept, so memory does not grow with the session's
// quadratic history.
//
// Every request repeats the session's tools, so a tool is normalized once,
// at Finish, from the first definition of its name: not once per request.
// Finish builds only the members the active rules read (Options.Fields),
// and the whole document again from the same kept state when Go code asks
// for it (Document.goValue).
type proxyLog struct {
	file    string
	opts    Options
	entries []proxyEntry
	first   int
	id      string

	sel      ProxyLogSelection
	selected ast.Object // request of the chosen entry
	reqPath  string
	response *ast.Term
	respPath string
	selLine  int

	tools     []proxyTool
	toolNames map[string]bool
	named     *ast.Array // a tools list all of whose names toolNames holds
}

// proxyEntry is what an entry of the session keeps for its member of the
// document's entries: no part of the request itself.
type proxyEntry struct {
	line, status, count  int
	valid                bool
	sessionID, timestamp *ast.Term // nil when the line has none
	roles                *ast.Term
}

// proxyTool is the first definition of a tool name in the session.
type proxyTool struct {
	raw  *ast.Term
	path string
	line int
}

func newProxyLog(file string, opts Options) *proxyLog {
	return &proxyLog{file: file, opts: opts, toolNames: map[string]bool{}}
}

func (p *proxyLog) Add(line int, rec ast.Object) *Document {
	if p.first == 0 {
		p.first = line
		p.id = stringField(rec, keySessionID)
	}
	req, reqPath := request(rec)
	msgs := arrayField(req, KeyMessages)
	e := proxyEntry{line: line, status: httpStatus(rec), valid: msgs != nil,
		sessionID: get(rec, keySessionID), timestamp: get(rec, keyTimestamp), roles: emptyArray}
	if msgs != nil {
		e.count = msgs.Len()
		e.roles = roleTrace(msgs)
	}
	p.entries = append(p.entries, e)

	if msgs == nil {
		return nil
	}
	if p.sel.Add(e.count) {
		p.selected, p.reqPath, p.selLine = req, reqPath, line
		p.response, p.respPath = responseMessage(rec)
	}
	if tools := arrayField(req, KeyTools); tools != nil && tools != p.named {
		p.addTools(tools, reqPath, line)
	}
	return nil
}

// addTools keeps the first definition of each tool name of a request, and
// every unnamed one.
func (p *proxyLog) addTools(tools *ast.Array, reqPath string, line int) {
	unnamed := false
	for i := 0; i < tools.Len(); i++ {
		raw := tools.Elem(i)
		name := toolName(raw)
		unnamed = unnamed || name == ""
		if name != "" && p.toolNames[name] {
			continue
		}
		p.toolNames[name] = name != ""
		p.tools = append(p.tools, proxyTool{raw: raw, path: pointerIndex(reqPath+"/tools", i), line: line})
	}
	if !unnamed {
		// Every name is kept now: the same list again (the decoder
		// shares one term for a repeated value) adds nothing.
		p.named = tools
	}
}

// entryTerm is an entry's member of the document's entries.
func (e *proxyEntry) term(index int) *ast.Term {
	var kv [9][2]*ast.Term
	n := 0
	add := func(k, v *ast.Term) { kv[n] = [2]*ast.Term{k, v}; n++ }
	add(KeyIndex, intTerm(index))
	add(KeyLine, intTerm(e.line))
	add(keyType, entryType)
	if e.sessionID != nil {
		add(keySessionID, e.sessionID)
	}
	if e.timestamp != nil {
		add(keyTimestamp, e.timestamp)
	}
	if e.status != 0 {
		add(keyStatus, intTerm(e.status))
	}
	add(keyValid, boolTerm(e.valid))
	add(keyRoles, e.roles)
	add(keyMessageCount, intTerm(e.count))
	return ast.NewTerm(ast.NewObject(kv[:n]...))
}

var entryType = ast.StringTerm("request")

// responseMessage returns response.choices[0].message (or the same under
// response.body) and its pointer.
func responseMessage(rec ast.Object) (*ast.Term, string) {
	resp, base := objectField(rec, keyResponse), "/response"
	if resp != nil && get(resp, keyChoices) == nil {
		if body := objectField(resp, keyBody); body != nil {
			resp, base = body, "/response/body"
		}
	}
	choices := arrayField(resp, keyChoices)
	if choices == nil || choices.Len() == 0 {
		return nil, ""
	}
	c, _ := choices.Elem(0).Value.(ast.Object)
	m := get(c, keyMessage)
	if m == nil {
		return nil, ""
	}
	if _, ok := m.Value.(ast.Object); !ok {
		return nil, ""
	}
	return m, base + "/choices/0/message"
}

func (p *proxyLog) Finish() *Document {
	if p.first == 0 {
		return nil
	}
	d := newDoc(ProxyLog, p.file, p.first, p.id, p.opts)
	d.toolLines = make([]int, len(p.tools))
	for i, t := range p.tools {
		d.toolLines[i] = t.line
	}
	if d.ID == "" {
		d.ID = fallbackID(p.file, p.first)
	}
	d.fields = p.opts.Fields
	d.Value = p.value(d)
	if !d.fields.All() {
		all := *d
		all.fields = nil
		d.whole = func() ast.Object { return p.value(&all) }
	}
	return d
}

// value builds the session's document with the members d.fields names.
func (p *proxyLog) value(d *Document) ast.Object {
	f := d.fields
	var ms []message
	raw, tools, entries := ast.NullTerm(), emptyArray, emptyArray
	if f.All() || f.tools || f.lookup || f.raw { // the lookup names the tools; raw holds their definitions
		terms := make([]*ast.Term, len(p.tools))
		for i, t := range p.tools {
			terms[i] = toolTerm(i, t.raw, t.path)
		}
		tools = ast.ArrayTerm(terms...)
	}
	if p.selected != nil && f.needsMode() {
		msgs := arrayField(p.selected, KeyMessages)
		ms = make([]message, 0, msgs.Len()+1)
		for i := 0; i < msgs.Len(); i++ {
			ms = appendMessages(ms, msgs.Elem(i), p.selLine, strTerm(pointerIndex(p.reqPath+"/messages", i)), -1)
		}
		if p.response != nil {
			ms = appendMessages(ms, p.response, p.selLine, strTerm(p.respPath), -1)
		}
	}
	if p.selected != nil && (f.All() || f.raw) {
		raw = p.raw(tools.Value.(*ast.Array))
	}
	if f.All() || f.entries {
		terms := make([]*ast.Term, len(p.entries))
		for i := range p.entries {
			terms[i] = p.entries[i].term(i)
		}
		entries = ast.ArrayTerm(terms...)
	}
	mode := ""
	if f.needsMode() {
		mode = detectMode(ms, p.opts.ToolCalls)
	}
	return newDocument(d, mode, ms, tools, entries, raw)
}

// raw is the squashed record: the chosen entry's messages and response,
// and the definitions of the session's tools.
func (p *proxyLog) raw(tools *ast.Array) *ast.Term {
	msgs := arrayField(p.selected, KeyMessages)
	rawMsgs := make([]*ast.Term, 0, msgs.Len()+1)
	for i := 0; i < msgs.Len(); i++ {
		rawMsgs = append(rawMsgs, msgs.Elem(i))
	}
	if p.response != nil {
		rawMsgs = append(rawMsgs, p.response)
	}
	flat := make([]*ast.Term, tools.Len())
	for i := range flat {
		flat[i] = get(tools.Elem(i).Value.(ast.Object), keyFunction)
	}
	return ast.ObjectTerm(
		ast.Item(KeyMessages, ast.ArrayTerm(rawMsgs...)),
		ast.Item(KeyTools, ast.ArrayTerm(flat...)),
	)
}
