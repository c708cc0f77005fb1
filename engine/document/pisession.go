package document

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

var piSessionAdapter = &Adapter{
	Format:  PiSession,
	Summary: `a pi or OpenClaw agent session transcript (formerly agent-session): a header {"type": "session", "id"} then one entry per line`,
	PerFile: true,
	Detect:  func(rec ast.Object) bool { return stringField(rec, keyType) == "session" },
	Shape:   `a session header {"type": "session", "id": …} as its first line`,
	// The transcript repair: results paired with their calls, missing ones
	// synthesised.
	Cleanup:      []string{"transcript"},
	MessageLines: true,
	Header:       piSessionHeader,
	NewBuilder: func(file string, opts Options) Builder {
		return &piSession{file: file, opts: opts}
	},
	Parts: &PartKinds{ToolCalls: []string{"toolCall"}, ToolResults: []string{"toolResult"}},
	IDs:   &IDMembers{Results: []string{"toolCallId", "toolUseId"}},
}

// piSession gathers a session transcript (pi / OpenClaw style): a header
// line {"type": "session", "id": …} and entries, of which "message" entries
// make the conversation. Other entries are kept in entries and ignored by
// message rules.
type piSession struct {
	file     string
	opts     Options
	first    int
	header   *ast.Term
	id       string
	entries  []*ast.Term
	messages []message
}

func (s *piSession) Add(line int, rec ast.Object) *Document {
	if s.first == 0 {
		s.first = line
		if stringField(rec, keyType) == "session" {
			s.header = ast.NewTerm(rec)
			s.id = stringField(rec, keyID)
			return nil
		}
	}
	typ := stringField(rec, keyType)
	e := ast.NewObjectWithCapacity(6)
	e.Insert(KeyIndex, intTerm(len(s.entries)))
	e.Insert(KeyLine, intTerm(line))
	e.Insert(keyType, strTerm(typ))
	if t := get(rec, keyTimestamp); t != nil {
		e.Insert(keyTimestamp, t)
	}
	if t := get(rec, keyID); t != nil {
		e.Insert(keyID, t)
	}
	e.Insert(KeyRaw, ast.NewTerm(rec))
	s.entries = append(s.entries, ast.NewTerm(e))
	if typ == "message" {
		if m := get(rec, keyMessage); m != nil {
			s.messages = appendMessages(s.messages, m, line, messageKeyPath, -1)
		}
	}
	return nil
}

func (s *piSession) Finish() *Document {
	if s.first == 0 {
		return nil
	}
	d := newDoc(PiSession, s.file, s.first, s.id, s.opts)
	if d.ID == "" {
		d.ID = fallbackID(s.file, s.first)
	}
	raw := s.header
	if raw == nil {
		raw = ast.NullTerm()
	}
	mode := detectMode(s.messages, s.opts.ToolCalls)
	d.Value = newDocument(d, mode, s.messages, emptyArray, ast.ArrayTerm(s.entries...), raw)
	return d
}

// messageKeyPath is the pointer of an agent transcript line's message.
var messageKeyPath = ast.StringTerm("/message")
