package document

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// Text records: {"text": "..."}, one document of plain text per line, the
// "general" format of Together's fine-tuning (continued pre-training) and of
// most pre-training corpora. A record holds no conversation: its document
// has no messages, and rules read the record as raw (raw.text).
//
// Detection asks for a text member that is a string (or a list of parts, as
// Together takes them), and the registry asks this adapter last, so that a
// record of a conversation format which also carries a text field is still
// read as that format, and a log line whose text is a number stays of no
// format.
var textAdapter = &Adapter{
	Format:  Text,
	Summary: `plain text records: {"text": "..."} (Together's general format, pre-training corpora)`,
	Detect: func(rec ast.Object) bool {
		t := get(rec, keyText)
		if t == nil {
			return false
		}
		switch t.Value.(type) {
		case ast.String, *ast.Array:
			return true
		}
		return false
	},
	Shape:      "a text member holding a string (or a list of parts)",
	NewBuilder: func(file string, opts Options) Builder { return textBuilder{file: file, opts: opts} },
	Unfixable: func(ast.Object) string {
		return "a text record has no messages for a cleanup rule to edit"
	},
}

type textBuilder struct {
	file string
	opts Options
}

func (b textBuilder) Add(line int, rec ast.Object) *Document {
	id := stringField(rec, keyID)
	if id == "" {
		id = fallbackID(b.file, line)
	}
	d := newDoc(Text, b.file, line, id, b.opts)
	d.Value = newDocument(d, modeStructured, nil, emptyArray, emptyArray, ast.NewTerm(rec))
	return d
}

func (textBuilder) Finish() *Document { return nil }
