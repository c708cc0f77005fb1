package document

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

var chatAdapter = &Adapter{
	Format:  Chat,
	Summary: `one conversation per line: {"messages": [...], "tools": [...]}, OpenAI tool calls or inline <tool_call> tags (mistral-finetune's "interactions" read as messages); or a preference record {"input": {"messages"}, "preferred_output", "non_preferred_output"}`,
	Detect: func(rec ast.Object) bool {
		return get(rec, KeyMessages) != nil || interactions(rec) != nil || preferenceInput(rec) != nil
	},
	Shape:  "a messages member",
	Unread: chatUnread,
	// Sent to a chat API as is: OpenAI's tool-message rules.
	Cleanup: []string{"openai-tools"},
	NewBuilder: func(file string, opts Options) Builder {
		return recordBuilder{format: Chat, file: file, opts: opts}
	},
	Reads:    chatReads,
	rebuilds: true,
}

// recordBuilder makes one document per record: chat and contract.
type recordBuilder struct {
	format Format
	file   string
	opts   Options
}

func (b recordBuilder) Add(line int, rec ast.Object) *Document {
	if b.opts.RawOnly {
		return rawDocument(b.format, b.file, line, rec)
	}
	return fromRecord(b.format, b.file, line, rec, b.opts)
}

// rawDocument is a record's document under Options.RawOnly.
func rawDocument(format Format, file string, line int, rec ast.Object) *Document {
	return &Document{
		Format: format, File: file, Line: line,
		Value: ast.NewObject([2]*ast.Term{KeyFormat, strTerm(string(format))}, [2]*ast.Term{KeyRaw, ast.NewTerm(rec)}),
	}
}

func (recordBuilder) Finish() *Document { return nil }

// fromRecord normalizes one chat or contract record.
func fromRecord(format Format, file string, line int, rec ast.Object, opts Options) *Document {
	var ms []message
	var pooled *[]message
	if !opts.Fields.needsMode() {
		// No rule reads the messages, the lookup or the mode: none is
		// built, unless Go code asks for the messages (Document.member).
	} else if raw := arrayField(rec, KeyMessages); raw != nil {
		pooled, ms = getMessages(raw.Len())
		for i := 0; i < raw.Len(); i++ {
			ms = appendMessages(ms, raw.Elem(i), line, messagePath(i), i)
		}
	} else if raw := interactions(rec); raw != nil {
		// mistral-finetune's other name for the messages list.
		pooled, ms = getMessages(raw.Len())
		for i := 0; i < raw.Len(); i++ {
			ms = appendMessages(ms, raw.Elem(i), line, ast.StringTerm(pointerIndex("/interactions", i)), -1)
		}
	} else if in := preferenceInput(rec); in != nil {
		// A preference (DPO) record: the conversation is its input's
		// messages; rules read the outputs from raw.
		raw := arrayField(in, KeyMessages)
		pooled, ms = getMessages(raw.Len())
		for i := 0; i < raw.Len(); i++ {
			ms = appendMessages(ms, raw.Elem(i), line, ast.StringTerm(pointerIndex("/input/messages", i)), -1)
		}
	}
	mode := ""
	if opts.Fields.needsMode() {
		mode = detectMode(ms, opts.ToolCalls)
	}
	id := stringField(rec, keyConvID)
	if id == "" {
		id = stringField(rec, keyID)
	}
	if id == "" {
		id = fallbackID(file, line)
	}
	tools := emptyArray
	if f := opts.Fields; !f.All() && !f.tools && !f.lookup {
		// no rule reads them (the lookup names them)
	} else if get(rec, KeyTools) != nil {
		// A list, or a JSON string holding one (LLaMA-Factory's records).
		tools = shareGPTTools(rec)
	}
	d := newDoc(format, file, line, id, opts)
	d.fields = opts.Fields
	d.Value = newDocument(d, mode, ms, tools, emptyArray, ast.NewTerm(rec))
	if format == Chat && opts.Fields.All() {
		chatPreference(d.Value, rec, line, opts)
	}
	if pooled != nil {
		putMessages(pooled, ms)
	}
	if !opts.Fields.All() {
		all := opts
		all.Fields = nil
		d.whole = func() ast.Object { return fromRecord(format, file, line, d.record(rec), all).Value }
	}
	return d
}

// newDocument normalizes the messages and builds the document.
func newDocument(d *Document, mode string, ms []message, tools, entries, raw *ast.Term) ast.Object {
	if f := d.fields; !f.All() {
		return prunedDocument(d, f, mode, ms, tools, entries, raw)
	}
	messages := buildMessages(ms, mode)
	members := [...][2]*ast.Term{
		{KeyFormat, nameTerm(string(d.Format))},
		{keyFile, fileTerm(d.File)},
		{KeyLine, intTerm(d.Line)},
		{keyID, strTerm(d.ID)},
		{KeyMode, nameTerm(mode)},
		{KeyMessages, messages},
		{KeyTools, tools},
		{keyEntries, entries},
		{KeyRaw, raw},
		{keyProfile, profileTerm(d.Profile)},
		{keyLookup, nil},
	}
	n := len(members)
	if d.skipLookup { // no active rule reads it
		n--
	} else {
		members[n-1][1] = lookupTerm(ms, tools)
	}
	o := ast.NewObject(members[:n]...)
	if d.model != nil { // only a run that names a model has the field
		o.Insert(keyModel, d.model.term())
	}
	return o
}

// toolTerm normalizes one tool definition. "function" is the definition
// itself: the function object of an OpenAI {"type": "function", "function":
// …} wrapper, else the element as given, as proxy-log converters flatten tools.
// "parameters" is its JSON Schema, whichever key holds it: parameters
// (OpenAI) or input_schema (Anthropic Messages).
//
// Tools carry no line: a chat record's tools are on the record's line, and
// leaving it out lets records share one normalized tools array.
func toolTerm(i int, raw *ast.Term, path string) *ast.Term {
	def, defPath := raw, path
	name := ""
	if o, ok := raw.Value.(ast.Object); ok {
		if fn := get(o, keyFunction); fn != nil {
			if fo, ok := fn.Value.(ast.Object); ok {
				def, defPath = fn, path+"/function"
				name = stringField(fo, keyName)
			}
		}
		if name == "" {
			name = stringField(o, keyName)
		}
	}
	params, paramsPath := toolParameters(def, defPath)
	o := ast.NewObjectWithCapacity(8)
	o.Insert(KeyIndex, intTerm(i))
	o.Insert(keyName, strTerm(name))
	o.Insert(KeyPath, strTerm(path))
	o.Insert(KeyRaw, raw)
	o.Insert(keyFunction, def)
	o.Insert(KeyFunctionPath, strTerm(defPath))
	if params != nil {
		o.Insert(keyParameters, params)
	}
	if paramsPath != "" {
		o.Insert(keyParametersPath, strTerm(paramsPath))
	}
	return ast.NewTerm(o)
}

// recordTools normalizes a record's tools list. The decoder hands out one
// shared term for a tools list repeated across records (astjson's repeat
// cache), so its normalized form is kept too, by the raw term's identity.
func recordTools(raw *ast.Term, arr *ast.Array) *ast.Term {
	if t := sharedTools.get(raw); t != nil {
		return t
	}
	tools := make([]*ast.Term, arr.Len())
	for i := range tools {
		tools[i] = toolTerm(i, arr.Elem(i), pointerIndex("/tools", i))
	}
	t := ast.ArrayTerm(tools...)
	sharedTools.put(raw, t)
	return t
}

// preferenceInput is the input object of a preference record (OpenAI's
// DPO format: {"input": {"messages", "tools"}, "preferred_output",
// "non_preferred_output"}) when its messages are a list; otherwise nil.
func preferenceInput(rec ast.Object) ast.Object {
	in := objectField(rec, keyInput)
	if in == nil || arrayField(in, KeyMessages) == nil {
		return nil
	}
	return in
}

// keyInteractions is mistral-finetune's other name for a record's messages
// (build_instruct_sample reads "messages" or "interactions", never both).
var keyInteractions = ast.StringTerm("interactions")

// interactions is the messages list of a record that names it
// "interactions" and has no messages member; otherwise nil.
func interactions(rec ast.Object) *ast.Array {
	if get(rec, KeyMessages) != nil {
		return nil
	}
	return arrayField(rec, keyInteractions)
}

// chatUnread says why a chat or contract record's messages are not chat
// messages: a list of objects none of which has a string role is some other
// shape (a Gemini CLI session's {type: user|gemini}, a LangChain dump's
// {type: human|ai}) that reading as chat would empty. A list where some
// message has a role is chat, and a message without one is the role rules'
// to report.
func chatUnread(rec ast.Object) string {
	msgs, where := arrayField(rec, KeyMessages), "messages"
	if msgs == nil && get(rec, KeyMessages) == nil {
		msgs, where = arrayField(rec, keyInteractions), "interactions"
	}
	if msgs == nil {
		if in := preferenceInput(rec); in != nil {
			msgs, where = arrayField(in, KeyMessages), "input.messages"
		}
	}
	if msgs == nil {
		return ""
	}
	objects := 0
	for i := 0; i < msgs.Len(); i++ {
		m, ok := msgs.Elem(i).Value.(ast.Object)
		if !ok {
			continue
		}
		if r := get(m, keyRole); r != nil {
			if _, ok := r.Value.(ast.String); ok {
				return ""
			}
		}
		objects++
	}
	if objects == 0 {
		return ""
	}
	return "messages with a role: none of the objects in " + where + " has a string role"
}
