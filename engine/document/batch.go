package document

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// Batch files of the OpenAI Batch API and the Anthropic Message Batches
// API: one request, or one result, per line, each named by a custom_id that
// must be unique in the file. A line is one document, its messages those
// of the request it wraps (or the single message of a result), so the
// integrity rules check a batch request as they check a chat record; the
// batch pack reports failed results and reused custom_ids.

var (
	keyCustomID = ast.StringTerm("custom_id")
	keyParams   = ast.StringTerm("params")
	keyResult   = ast.StringTerm("result")
	keyError    = ast.StringTerm("error")
	keyDup      = ast.StringTerm("duplicate")
	keyMember   = ast.StringTerm("member")
	keyFirst    = ast.StringTerm("first_line")
)

// customID is the UniqueKey of every batch format.
func customID(rec ast.Object) (string, string) { return "custom_id", stringField(rec, keyCustomID) }

var openAIBatchInputAdapter = &Adapter{
	Format:  OpenAIBatchInput,
	Summary: `OpenAI Batch API input: {"custom_id", "method", "url", "body": {"messages", "tools", …}} per line`,
	Detect: func(rec ast.Object) bool {
		return get(rec, keyCustomID) != nil && objectField(rec, keyBody) != nil
	},
	Fits: func(rec ast.Object) string {
		if get(rec, keyCustomID) == nil || objectField(rec, keyBody) == nil {
			return "a custom_id and a body object"
		}
		return ""
	},
	// Requests go to a chat API as they are: OpenAI's tool-message rules.
	Cleanup: []string{"openai-tools"},
	NewBuilder: func(file string, opts Options) Builder {
		return batchBuilder{format: OpenAIBatchInput, file: file, opts: opts}
	},
	UniqueKey: customID,
}

var openAIBatchOutputAdapter = &Adapter{
	Format:  OpenAIBatchOutput,
	Summary: `OpenAI Batch API output: {"id", "custom_id", "response": {"status_code", "body"}, "error"} per line`,
	Detect: func(rec ast.Object) bool {
		return get(rec, keyCustomID) != nil && (get(rec, keyResponse) != nil || get(rec, keyError) != nil)
	},
	Fits: func(rec ast.Object) string {
		if get(rec, keyCustomID) == nil || (get(rec, keyResponse) == nil && get(rec, keyError) == nil) {
			return "a custom_id and a response or error member"
		}
		return ""
	},
	NewBuilder: func(file string, opts Options) Builder {
		return batchBuilder{format: OpenAIBatchOutput, file: file, opts: opts}
	},
	Unfixable: func(ast.Object) string {
		return "a batch output records what the API answered; it is checked, not rewritten"
	},
	UniqueKey: customID,
}

var anthropicBatchAdapter = &Adapter{
	Format:  AnthropicBatch,
	Summary: `Anthropic Message Batches requests {"custom_id", "params": {"messages", "system", "tools", …}} or results {"custom_id", "result": {"type", "message"}} per line`,
	Detect: func(rec ast.Object) bool {
		return get(rec, keyCustomID) != nil && (objectField(rec, keyParams) != nil || objectField(rec, keyResult) != nil)
	},
	Fits: func(rec ast.Object) string {
		if get(rec, keyCustomID) == nil || (objectField(rec, keyParams) == nil && objectField(rec, keyResult) == nil) {
			return "a custom_id and a params or result object"
		}
		return ""
	},
	// Requests are sent as OpenAI-style messages once converted: the same
	// tool-message rules, written back in its own layout.
	Cleanup: []string{"openai-tools"},
	NewBuilder: func(file string, opts Options) Builder {
		return batchBuilder{format: AnthropicBatch, file: file, opts: opts}
	},
	Unfixable: func(rec ast.Object) string {
		if objectField(rec, keyParams) == nil {
			return "a batch result records what the API answered; it is checked, not rewritten"
		}
		return ""
	},
	UniqueKey: customID,
	Parts:     anthropicParts,
	IDs:       anthropicIDs,
}

type batchBuilder struct {
	format Format
	file   string
	opts   Options
}

func (b batchBuilder) Add(line int, rec ast.Object) *Document {
	var ms []message
	tools := emptyArray
	switch b.format {
	case OpenAIBatchInput:
		body := objectField(rec, keyBody)
		ms = requestMessages(ms, body, "/body", line)
		tools = requestTools(body, "/body")
	case OpenAIBatchOutput:
		if m, p := responseMessage(rec); m != nil {
			ms = appendMessages(ms, m, line, strTerm(p), -1)
		}
	case AnthropicBatch:
		if params := objectField(rec, keyParams); params != nil {
			ms = systemMessage(ms, params, "/params", line)
			ms = requestMessages(ms, params, "/params", line)
			tools = requestTools(params, "/params")
		} else if m := get(objectField(rec, keyResult), keyMessage); m != nil {
			if _, ok := m.Value.(ast.Object); ok {
				ms = appendMessages(ms, m, line, strTerm("/result/message"), -1)
			}
		}
	}
	id := stringField(rec, keyCustomID)
	if id == "" {
		id = fallbackID(b.file, line)
	}
	d := newDoc(b.format, b.file, line, id, b.opts)
	d.Value = newDocument(d, detectMode(ms, b.opts.ToolCalls), ms, tools, emptyArray, ast.NewTerm(rec))
	return d
}

func (batchBuilder) Finish() *Document { return nil }

// requestMessages appends the messages of a request object at pointer base.
func requestMessages(ms []message, req ast.Object, base string, line int) []message {
	raw := arrayField(req, KeyMessages)
	if raw == nil {
		return ms
	}
	for i := 0; i < raw.Len(); i++ {
		ms = appendMessages(ms, raw.Elem(i), line, strTerm(pointerIndex(base+"/messages", i)), -1)
	}
	return ms
}

// systemMessage appends the system prompt of an Anthropic request (a string
// or a list of text blocks) as a system message.
func systemMessage(ms []message, req ast.Object, base string, line int) []message {
	s := get(req, keySystem)
	if s == nil {
		return ms
	}
	m := message{raw: s, role: "system", line: line, pathTerm: strTerm(base + "/system"), chatIndex: -1}
	m.text, m.hasContent = contentText(s)
	if _, ok := s.Value.(ast.String); ok {
		m.textTerm = s
	}
	return append(ms, m)
}

// requestTools normalizes the tools of a request object at pointer base.
func requestTools(req ast.Object, base string) *ast.Term {
	raw := arrayField(req, KeyTools)
	if raw == nil {
		return emptyArray
	}
	tools := make([]*ast.Term, raw.Len())
	for i := range tools {
		tools[i] = toolTerm(i, raw.Elem(i), pointerIndex(base+"/tools", i))
	}
	return ast.ArrayTerm(tools...)
}

// MarkDuplicate records on the document that the value of its record's
// unique member (a batch line's custom_id) was used first on an earlier
// line: the document's "duplicate" field, {"member", "value", "first_line"},
// which a rule reports. Only the reader sees the whole file, so it tells.
func (d *Document) MarkDuplicate(member, value string, firstLine int) {
	d.Value.Insert(keyDup, ast.ObjectTerm(
		ast.Item(keyMember, strTerm(member)),
		ast.Item(keyValue, strTerm(value)),
		ast.Item(keyFirst, intTerm(firstLine)),
	))
}
