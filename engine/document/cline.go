package document

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// Cline is a Cline (or Roo Code) task history, the
// tasks/<id>/api_conversation_history.json the extension keeps: a JSON array
// of the Anthropic messages it sent and received, each with the time it was
// added, {"role": "user"|"assistant", "content": string | [{"type": "text"
// | "image" | "tool_use" | "tool_result" | "thinking", …}], "ts"}. tool_use
// blocks are calls and tool_result blocks tool messages, as in any
// Anthropic record. (Versions that call tools with XML tags in the text,
// <read_file>…</read_file>, and answer them in a user text "[read_file for
// '…'] Result:", are read as that text.)
const Cline Format = "cline"

var clineAdapter = &Adapter{
	Format:     Cline,
	Summary:    `a Cline / Roo Code task history (api_conversation_history.json): a JSON array of Anthropic messages {"role", "content", "ts"}`,
	PerFile:    true,
	Detect:     isClineMessage,
	Shape:      `an Anthropic message with its time {"role": "user"|"assistant", "content", "ts": number} as its first record`,
	NewBuilder: func(file string, opts Options) Builder { return &cline{file: file, opts: opts} },
	Unfixable: func(ast.Object) string {
		return "a Cline task history is the extension's own record of a task, which fix does not rewrite; check it, or convert it with convert --to openai"
	},
}

var keyClineTS = ast.StringTerm("ts")

// isClineMessage tells a message of a task history by its role, its
// content and the numeric ts Cline and Roo Code add to every message.
func isClineMessage(rec ast.Object) bool {
	switch stringField(rec, keyRole) {
	case "user", "assistant":
	default:
		return false
	}
	ts := get(rec, keyClineTS)
	if ts == nil || get(rec, keyContent) == nil {
		return false
	}
	_, ok := ts.Value.(ast.Number)
	return ok
}

type cline struct {
	file    string
	opts    Options
	first   int
	entries []*ast.Term
	ms      []message
	un      unmappedSet
}

func (c *cline) Add(line int, rec ast.Object) *Document {
	if c.first == 0 {
		c.first = line
	}
	e := ast.NewObjectWithCapacity(5)
	e.Insert(KeyIndex, intTerm(len(c.entries)))
	e.Insert(KeyLine, intTerm(line))
	e.Insert(keyType, strTerm("message"))
	if t := get(rec, keyClineTS); t != nil {
		e.Insert(keyTimestamp, t)
	}
	e.Insert(KeyRaw, ast.NewTerm(rec))
	c.entries = append(c.entries, ast.NewTerm(e))
	c.un.addOthers(line, rec, "messages[].", "role", "content")
	c.ms = appendMessages(c.ms, ast.NewTerm(rec), line, rootPath, -1)
	return nil
}

func (c *cline) Finish() *Document {
	if c.first == 0 {
		return nil
	}
	d := newDoc(Cline, c.file, c.first, fallbackID(c.file, c.first), c.opts)
	mode := detectMode(c.ms, c.opts.ToolCalls)
	d.Value = newDocument(d, mode, c.ms, emptyArray, ast.ArrayTerm(c.entries...), ast.NullTerm())
	d.Unmapped = c.un.list("Cline members")
	return d
}
