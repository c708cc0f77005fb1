package document

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// GooseSession is goose's legacy session file (~/.local/share/goose/sessions/*.jsonl
// before goose kept sessions in SQLite): a metadata line {"working_dir",
// "description", "message_count", token counts…}, then one message per line
// {"role", "created", "content": [parts]}. Parts are {"type": "text"},
// {"type": "toolRequest", "id", "toolCall": {"status", "value": {"name",
// "arguments"}}} in assistant messages, and {"type": "toolResponse", "id",
// "toolResult": {"status", "value": [content]}} in user messages. Tool
// requests are tool calls; each tool response becomes a tool message of its
// own, as an Anthropic tool_result block does. It is checked, not fixed: a
// message is a whole line, and fix rewrites sessions only in pi's entry
// layout.

var gooseSessionAdapter = &Adapter{
	Format:     GooseSession,
	Summary:    `a goose legacy session file: a metadata line {"working_dir", "description", "message_count", …} then one {"role", "created", "content"} message per line`,
	PerFile:    true,
	Detect:     isGooseHeader,
	Shape:      `a goose metadata line {"working_dir", "message_count", …} as its first line`,
	NewBuilder: func(file string, opts Options) Builder { return &gooseSession{file: file, opts: opts} },
	Unfixable: func(ast.Object) string {
		return "a goose session keeps one message per line, which fix does not rewrite; check it, fix the conversation in goose"
	},
}

var (
	keyWorkingDir = ast.StringTerm("working_dir")
	keyCreated    = ast.StringTerm("created")
	keyToolCall   = ast.StringTerm("toolCall")
	keyToolResult = ast.StringTerm("toolResult")
	rootPath      = ast.StringTerm("")
)

func isGooseHeader(rec ast.Object) bool {
	return get(rec, keyWorkingDir) != nil && get(rec, keyMessageCount) != nil && get(rec, keyRole) == nil
}

type gooseSession struct {
	file     string
	opts     Options
	first    int
	header   *ast.Term
	entries  []*ast.Term
	messages []message
}

func (s *gooseSession) Add(line int, rec ast.Object) *Document {
	if s.first == 0 {
		s.first = line
		if isGooseHeader(rec) {
			s.header = ast.NewTerm(rec)
			return nil
		}
	}
	e := ast.NewObjectWithCapacity(5)
	e.Insert(KeyIndex, intTerm(len(s.entries)))
	e.Insert(KeyLine, intTerm(line))
	e.Insert(keyType, strTerm("message"))
	if t := get(rec, keyCreated); t != nil {
		e.Insert(keyTimestamp, t)
	}
	e.Insert(KeyRaw, ast.NewTerm(rec))
	s.entries = append(s.entries, ast.NewTerm(e))
	s.messages = gooseMessage(s.messages, rec, line)
	return nil
}

// gooseMessage appends one message line: its tool responses as tool
// messages, then the message itself when it has anything else (an
// assistant message always: its tool requests are its calls).
func gooseMessage(ms []message, rec ast.Object, line int) []message {
	m := message{raw: ast.NewTerm(rec), obj: rec, role: stringField(rec, keyRole), line: line, pathTerm: rootPath, chatIndex: -1}
	parts := arrayField(rec, keyContent)
	rest := parts == nil
	for j := 0; parts != nil && j < parts.Len(); j++ {
		p, _ := parts.Elem(j).Value.(ast.Object)
		pp := pointerIndex("/content", j)
		switch stringField(p, keyType) {
		case "toolRequest":
			tc := objectField(p, keyToolCall)
			v := objectField(tc, keyValue)
			args, has := callInput(v)
			parseErr := ""
			if st := stringField(tc, keyStatus); st != "" && st != "success" {
				parseErr = "tool request status " + st
			}
			m.addCall(stringTerm(p, keyID), stringTerm(v, keyName), args, has, strTerm(pp), parseErr)
			continue
		case "toolResponse":
			tr := objectField(p, keyToolResult)
			t := message{raw: parts.Elem(j), obj: p, role: "tool", line: line, pathTerm: strTerm(pp), chatIndex: -1}
			t.text, t.hasContent = contentText(get(tr, keyValue))
			if t.text == "" {
				t.text = stringField(tr, keyError)
			}
			if id := stringTerm(p, keyID); id.Value.(ast.String) != "" {
				t.callID = id
			}
			ms = append(ms, t)
			continue
		}
		rest = true
	}
	if rest || m.role == "assistant" || len(m.calls) > 0 {
		m.text, m.hasContent = contentText(gooseTextParts(parts))
		ms = append(ms, m)
	}
	return ms
}

// gooseTextParts keeps the parts that are content, not tool traffic.
func gooseTextParts(parts *ast.Array) *ast.Term {
	if parts == nil {
		return nil
	}
	var keep []*ast.Term
	for j := 0; j < parts.Len(); j++ {
		p, _ := parts.Elem(j).Value.(ast.Object)
		switch stringField(p, keyType) {
		case "toolRequest", "toolResponse":
			continue
		}
		keep = append(keep, parts.Elem(j))
	}
	return ast.ArrayTerm(keep...)
}

func (s *gooseSession) Finish() *Document {
	if s.first == 0 {
		return nil
	}
	d := newDoc(GooseSession, s.file, s.first, fallbackID(s.file, s.first), s.opts)
	raw := s.header
	if raw == nil {
		raw = ast.NullTerm()
	}
	mode := detectMode(s.messages, s.opts.ToolCalls)
	d.Value = newDocument(d, mode, s.messages, emptyArray, ast.ArrayTerm(s.entries...), raw)
	return d
}
