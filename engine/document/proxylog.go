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
// into one record, as a proxy-log converter does: the messages of the last entry with the
// session's maximum message count plus its response, and every entry's tools
// deduplicated by name, first definition wins. Only that one entry and small
// per-entry summaries are kept, so memory does not grow with the session's
// quadratic history.
type proxyLog struct {
	file    string
	opts    Options
	entries []*ast.Term
	first   int
	id      string

	max      int
	selected ast.Object // request of the chosen entry
	reqPath  string
	response *ast.Term
	respPath string
	selLine  int

	tools     []*ast.Term
	toolLines []int
	flat      []*ast.Term
	toolNames map[string]bool
}

func newProxyLog(file string, opts Options) *proxyLog {
	return &proxyLog{file: file, opts: opts, toolNames: map[string]bool{}, max: -1}
}

func (p *proxyLog) Add(line int, rec ast.Object) *Document {
	if p.first == 0 {
		p.first = line
		p.id = stringField(rec, keySessionID)
	}
	req, reqPath := request(rec)
	msgs := arrayField(req, KeyMessages)
	e := ast.NewObjectWithCapacity(8)
	e.Insert(KeyIndex, intTerm(len(p.entries)))
	e.Insert(KeyLine, intTerm(line))
	e.Insert(keyType, strTerm("request"))
	if t := get(rec, keySessionID); t != nil {
		e.Insert(keySessionID, t)
	}
	if t := get(rec, keyTimestamp); t != nil {
		e.Insert(keyTimestamp, t)
	}
	if st := httpStatus(rec); st != 0 {
		e.Insert(keyStatus, intTerm(st))
	}
	e.Insert(keyValid, boolTerm(msgs != nil))
	count := 0
	if msgs != nil {
		count = msgs.Len()
		e.Insert(keyRoles, roleTrace(msgs))
	} else {
		e.Insert(keyRoles, emptyArray)
	}
	e.Insert(keyMessageCount, intTerm(count))
	p.entries = append(p.entries, ast.NewTerm(e))

	if msgs == nil {
		return nil
	}
	if count >= p.max {
		p.max, p.selected, p.reqPath, p.selLine = count, req, reqPath, line
		p.response, p.respPath = responseMessage(rec)
	}
	if tools := arrayField(req, KeyTools); tools != nil {
		for i := 0; i < tools.Len(); i++ {
			t := toolTerm(len(p.tools), tools.Elem(i), pointerIndex(reqPath+"/tools", i))
			name := stringField(t.Value.(ast.Object), keyName)
			if name != "" && p.toolNames[name] {
				continue
			}
			p.toolNames[name] = name != ""
			p.tools = append(p.tools, t)
			p.toolLines = append(p.toolLines, line)
			p.flat = append(p.flat, get(t.Value.(ast.Object), keyFunction))
		}
	}
	return nil
}

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
	d.toolLines = p.toolLines
	if d.ID == "" {
		d.ID = fallbackID(p.file, p.first)
	}
	var ms []message
	raw := ast.NullTerm()
	if p.selected != nil {
		msgs := arrayField(p.selected, KeyMessages)
		rawMsgs := make([]*ast.Term, 0, msgs.Len()+1)
		for i := 0; i < msgs.Len(); i++ {
			ms = appendMessages(ms, msgs.Elem(i), p.selLine, strTerm(pointerIndex(p.reqPath+"/messages", i)), -1)
			rawMsgs = append(rawMsgs, msgs.Elem(i))
		}
		if p.response != nil {
			ms = appendMessages(ms, p.response, p.selLine, strTerm(p.respPath), -1)
			rawMsgs = append(rawMsgs, p.response)
		}
		raw = ast.ObjectTerm(
			ast.Item(KeyMessages, ast.ArrayTerm(rawMsgs...)),
			ast.Item(KeyTools, ast.ArrayTerm(p.flat...)),
		)
	}
	mode := detectMode(ms, p.opts.ToolCalls)
	d.Value = newDocument(d, mode, ms, ast.ArrayTerm(p.tools...), ast.ArrayTerm(p.entries...), raw)
	return d
}

// roleTrace tokenizes the roles of a request's messages for the
// role-sequence-mismatch rule, which compares the traces of consecutive entries.
func roleTrace(msgs *ast.Array) *ast.Term {
	out := make([]*ast.Term, msgs.Len())
	for i := range out {
		o, _ := msgs.Elem(i).Value.(ast.Object)
		role := stringField(o, keyRole)
		var tok string
		switch role {
		case "system", "developer":
			tok = "S"
		case "user":
			tok = "U"
		case "tool":
			tok = "T"
		case "assistant":
			_, content := contentText(get(o, keyContent))
			calls := arrayField(o, KeyToolCalls)
			switch hasCalls := calls != nil && calls.Len() > 0; {
			case content && hasCalls:
				tok = "Act"
			case content:
				tok = "Ac"
			case hasCalls:
				tok = "At"
			default:
				tok = "A"
			}
		default:
			tok = role
		}
		out[i] = tokenTerm(tok)
	}
	return ast.ArrayTerm(out...)
}

var tokenTerms = map[string]*ast.Term{}

func init() {
	for _, t := range []string{"S", "U", "T", "A", "Ac", "At", "Act"} {
		tokenTerms[t] = ast.StringTerm(t)
	}
}

func tokenTerm(s string) *ast.Term {
	if t, ok := tokenTerms[s]; ok {
		return t
	}
	return ast.StringTerm(s)
}
