package document

import (
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Bedrock conversation records (schemaVersion "bedrock-conversation-2024"):
// the Converse API layout Amazon Bedrock takes for fine-tuning Amazon Nova
// models and for distillation,
//
//	{"schemaVersion": "bedrock-conversation-2024",
//	 "system": [{"text": "..."}],
//	 "messages": [{"role": "user", "content": [{"text": "..."}, {"image": {...}}]},
//	              {"role": "assistant", "content": [{"toolUse": {"toolUseId", "name", "input"}}]},
//	              {"role": "user", "content": [{"toolResult": {"toolUseId", "content": [{"text"} | {"json"}], "status"}}]}],
//	 "toolConfig": {"tools": [{"toolSpec": {"name", "description", "inputSchema": {"json": {...}}}}]}}
//
// A content block is an object with one member naming its kind. The system
// blocks are a first system message (path /system); a toolUse block is a
// tool call of its message (path /messages/i/content/j); each toolResult
// block is a tool message of its own, as an Anthropic tool_result block is,
// then the rest of the user message; a toolSpec is a tool whose schema is
// inputSchema.json. Told from Claude's records, which share role and
// messages, by the schemaVersion member.
var bedrockConversationAdapter = &Adapter{
	Format:  BedrockConversation,
	Summary: `Bedrock conversation records (Amazon Nova fine-tuning): {"schemaVersion": "bedrock-conversation-2024", "system": [{"text"}], "messages": [{"role", "content": [blocks]}], "toolConfig"}`,
	Detect: func(rec ast.Object) bool {
		return strings.HasPrefix(stringField(rec, keySchemaVersion), "bedrock-conversation") && get(rec, KeyMessages) != nil
	},
	Shape: `a schemaVersion "bedrock-conversation-2024" and messages`,
	// Content blocks are untyped: {"text"}, {"toolUse"}, {"toolResult"}, {"image"}.
	Parts:      &PartKinds{Untyped: []UntypedPart{{"toolUse", PartToolCall}, {"toolResult", PartToolResult}}},
	NewBuilder: func(file string, opts Options) Builder { return bedrockBuilder{file: file, opts: opts} },
	Unfixable: func(ast.Object) string {
		return "fix does not write Bedrock conversation content blocks yet"
	},
}

var (
	keySchemaVersion = ast.StringTerm("schemaVersion")
	keyToolUse       = ast.StringTerm("toolUse")
	keyToolUseIDc    = ast.StringTerm("toolUseId")
	keyToolConfig    = ast.StringTerm("toolConfig")
	keyToolSpec      = ast.StringTerm("toolSpec")
	keyInputSchemac  = ast.StringTerm("inputSchema")
	keyJSON          = ast.StringTerm("json")
)

type bedrockBuilder struct {
	file string
	opts Options
}

func (b bedrockBuilder) Add(line int, rec ast.Object) *Document {
	var ms []message
	if sys := get(rec, keySystem); sys != nil {
		m := message{raw: sys, role: "system", line: line, pathTerm: strTerm("/system"), chatIndex: -1, ownCalls: true}
		m.text, m.hasContent = contentText(sys)
		ms = append(ms, m)
	}
	if msgs := arrayField(rec, KeyMessages); msgs != nil {
		for i := 0; i < msgs.Len(); i++ {
			ms = bedrockMessage(ms, msgs.Elem(i), line, pointerIndex("/messages", i))
		}
	}
	id := stringField(rec, keyID)
	if id == "" {
		id = fallbackID(b.file, line)
	}
	d := newDoc(BedrockConversation, b.file, line, id, b.opts)
	d.Value = newDocument(d, detectMode(ms, b.opts.ToolCalls), ms, bedrockTools(rec), emptyArray, ast.NewTerm(rec))
	return d
}

func (bedrockBuilder) Finish() *Document { return nil }

// bedrockMessage appends one message: its text and toolUse calls, with each
// toolResult block first as a tool message of its own.
func bedrockMessage(ms []message, raw *ast.Term, line int, path string) []message {
	o, _ := raw.Value.(ast.Object)
	m := message{raw: raw, obj: o, line: line, pathTerm: strTerm(path), chatIndex: -1, ownCalls: true}
	if o == nil {
		return append(ms, m)
	}
	m.role = stringField(o, keyRole)
	blocks := arrayField(o, keyContent)
	if blocks == nil {
		m.text, m.hasContent = contentText(get(o, keyContent))
		return append(ms, m)
	}
	var text []string
	rest := false
	for j := 0; j < blocks.Len(); j++ {
		blk, _ := blocks.Elem(j).Value.(ast.Object)
		bp := pointerIndex(path+"/content", j)
		if use := objectField(blk, keyToolUse); use != nil {
			args, has := callInput(use)
			m.addCall(stringTerm(use, keyToolUseIDc), stringTerm(use, keyName), args, has, strTerm(bp), "")
			continue
		}
		if res := objectField(blk, keyToolResult); res != nil {
			t := message{raw: blocks.Elem(j), obj: res, role: "tool", line: line, pathTerm: strTerm(bp), chatIndex: -1, ownCalls: true}
			t.text, t.hasContent = contentText(bedrockResultText(get(res, keyContent)))
			t.callID = firstPresent(res, keyToolUseIDc)
			if s := stringField(res, keyStatus); s != "" {
				t.isError = boolTerm(s == "error")
			}
			ms = append(ms, t)
			continue
		}
		rest = true
		if s, ok := partText(blocks.Elem(j)); ok {
			text = append(text, s)
		}
	}
	m.text = strings.Join(text, "\n")
	m.hasContent = rest
	if !rest && len(m.calls) == 0 && m.role == "user" && len(ms) > 0 && ms[len(ms)-1].role == "tool" {
		return ms // a user message of tool results only
	}
	return append(ms, m)
}

// bedrockResultText is a toolResult's content as text parts: its text
// blocks, and each json block as its JSON text.
func bedrockResultText(c *ast.Term) *ast.Term {
	if c == nil {
		return nil
	}
	arr, ok := c.Value.(*ast.Array)
	if !ok {
		return c
	}
	out := make([]*ast.Term, 0, arr.Len())
	arr.Foreach(func(p *ast.Term) {
		o, _ := p.Value.(ast.Object)
		if j := get(o, keyJSON); j != nil {
			out = append(out, ast.ObjectTerm([2]*ast.Term{keyText, ast.StringTerm(j.String())}))
			return
		}
		out = append(out, p)
	})
	return ast.ArrayTerm(out...)
}

// bedrockTools normalizes toolConfig.tools: each toolSpec is a tool, its
// schema inputSchema.json.
func bedrockTools(rec ast.Object) *ast.Term {
	tools := arrayField(objectField(rec, keyToolConfig), KeyTools)
	if tools == nil {
		return emptyArray
	}
	out := make([]*ast.Term, tools.Len())
	for i := range out {
		raw := tools.Elem(i)
		path := pointerIndex("/toolConfig/tools", i)
		o := ast.NewObjectWithCapacity(8)
		o.Insert(KeyIndex, intTerm(i))
		o.Insert(KeyPath, strTerm(path))
		o.Insert(KeyRaw, raw)
		spec := get(objectOf(raw), keyToolSpec)
		name := ""
		if so := objectOf(spec); so != nil {
			name = stringField(so, keyName)
			o.Insert(keyFunction, spec)
			o.Insert(KeyFunctionPath, strTerm(path+"/toolSpec"))
			o.Insert(keyParametersPath, strTerm(path+"/toolSpec/inputSchema/json"))
			if js := get(objectField(so, keyInputSchemac), keyJSON); js != nil {
				o.Insert(keyParameters, js)
			}
		}
		o.Insert(keyName, strTerm(name))
		out[i] = ast.NewTerm(o)
	}
	return ast.ArrayTerm(out...)
}

func objectOf(t *ast.Term) ast.Object {
	if t == nil {
		return nil
	}
	o, _ := t.Value.(ast.Object)
	return o
}
