package document

import (
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// LangChain is a LangChain / LangGraph conversation as the framework dumps
// it, one per record:
//
//   - a state dump {"messages": [message, …]} (a LangGraph graph's state,
//     a checkpoint's channel values);
//   - a LangSmith run {"inputs": {"messages"}, "outputs": {"messages"} |
//     {"generations": [[{"message", "text"}]]} | {"output": message}, "id",
//     "run_type", …}.
//
// A message is written in one of three spellings: a model_dump {"type":
// "human"|"ai"|"tool"|"system", "content", "tool_calls", "tool_call_id",
// "additional_kwargs", "response_metadata", "id", …}; messages_to_dict's
// {"type", "data": {…}}; or the lc serialization {"lc": 1, "type":
// "constructor", "id": ["langchain_core", "messages", "AIMessage"],
// "kwargs": {…}}. An ai message's tool_calls are {"name", "args", "id"}
// (args an object); a ChatOpenAI run may carry them only in OpenAI's shape
// under additional_kwargs.tool_calls; invalid_tool_calls are calls whose
// arguments did not parse. A tool message answers tool_call_id, flagged
// when its status is "error".
const LangChain Format = "langchain"

var langChainAdapter = &Adapter{
	Format:     LangChain,
	Summary:    `LangChain / LangGraph messages: a state {"messages": [{"type": "human"|"ai"|"tool"|"system", "content", "tool_calls", …}]} or a LangSmith run {"inputs": {"messages"}, "outputs"}; model_dump, {"type", "data"} or lc-serialized messages`,
	Detect:     isLangChain,
	Shape:      `a LangChain state {"messages": [{"type": "human"|"ai"|…, "content"}]} or LangSmith run {"inputs": {"messages": [...]}, "outputs"}`,
	NewBuilder: func(file string, opts Options) Builder { return langChain{file: file, opts: opts} },
	Unfixable: func(ast.Object) string {
		return "a LangChain dump keeps each message in the framework's own spelling, which fix does not rewrite; check it, or convert it with convert --to openai"
	},
}

var (
	keyLCInputs      = ast.StringTerm("inputs")
	keyLCOutputs     = ast.StringTerm("outputs")
	keyLCGenerations = ast.StringTerm("generations")
	keyLCOutput      = ast.StringTerm("output")
	keyLCData        = ast.StringTerm("data")
	keyLCKwargs      = ast.StringTerm("kwargs")
	keyLCLc          = ast.StringTerm("lc")
	keyLCArgs        = ast.StringTerm("args")
	keyLCInvalid     = ast.StringTerm("invalid_tool_calls")
	keyLCAddKwargs   = ast.StringTerm("additional_kwargs")
	keyLCError       = ast.StringTerm("error")
)

// langChainRoles maps a message type to its role; a chat message names its
// own.
var langChainRoles = map[string]string{"human": "user", "ai": "assistant", "system": "system", "tool": "tool",
	"function": "function", "developer": "developer"}

// langChainClasses maps an lc constructor's class to its message type.
var langChainClasses = map[string]string{"HumanMessage": "human", "AIMessage": "ai", "SystemMessage": "system",
	"ToolMessage": "tool", "FunctionMessage": "function", "ChatMessage": "chat"}

// langChainMessage unwraps one message of any spelling: its type and the
// object holding its fields, with that object's path below base. ok is
// false when m is not a LangChain message.
func langChainMessage(m ast.Object, base string) (typ string, fields ast.Object, path string, ok bool) {
	t := stringField(m, keyType)
	if t == "constructor" && get(m, keyLCLc) != nil {
		id := arrayField(m, keyID)
		if id == nil || id.Len() == 0 {
			return "", nil, "", false
		}
		class, _ := id.Elem(id.Len() - 1).Value.(ast.String)
		typ, known := langChainClasses[strings.TrimSuffix(string(class), "Chunk")]
		if !known {
			typ = string(class)
		}
		return typ, objectField(m, keyLCKwargs), base + "/kwargs", true
	}
	if data := objectField(m, keyLCData); data != nil && get(m, keyRole) == nil {
		return t, data, base + "/data", t != ""
	}
	if t == "" || get(m, keyRole) != nil && t != "chat" {
		return "", nil, "", false
	}
	if typ, known := langChainClasses[strings.TrimSuffix(t, "Chunk")]; known { // "AIMessageChunk"
		t = typ
	}
	return t, m, base, get(m, keyContent) != nil
}

// isLangChainList reports whether the first message of a list is a
// LangChain message of a known type.
func isLangChainList(list *ast.Array) bool {
	if list == nil || list.Len() == 0 {
		return false
	}
	if inner, ok := list.Elem(0).Value.(*ast.Array); ok { // a chat model run's [[messages]]
		return isLangChainList(inner)
	}
	m, _ := list.Elem(0).Value.(ast.Object)
	typ, _, _, ok := langChainMessage(m, "")
	_, known := langChainRoles[typ]
	return ok && (known || typ == "chat")
}

func isLangChain(rec ast.Object) bool {
	if isLangChainList(arrayField(rec, KeyMessages)) {
		return true
	}
	in := objectField(rec, keyLCInputs)
	return in != nil && isLangChainList(arrayField(in, KeyMessages))
}

type langChain struct {
	file string
	opts Options
}

func (b langChain) Add(line int, rec ast.Object) *Document {
	var un unmappedSet
	var ms []message
	if list := arrayField(rec, KeyMessages); list != nil {
		un.addOthers(line, rec, "", "messages")
		ms = langChainMessages(ms, list, line, "/messages", &un)
	} else {
		ms = langChainRun(rec, line, &un)
	}
	d := newDoc(LangChain, b.file, line, fallbackID(b.file, line), b.opts)
	if id := stringField(rec, keyID); id != "" {
		d.ID = id
	}
	mode := detectMode(ms, b.opts.ToolCalls)
	d.Value = newDocument(d, mode, ms, emptyArray, emptyArray, ast.NewTerm(rec))
	d.Unmapped = un.list("LangChain members")
	return d
}

func (langChain) Finish() *Document { return nil }

// langChainRun reads a LangSmith run: the state's messages when the outputs
// hold them (they begin with the inputs' messages), else the input messages
// and the generation or output after them.
func langChainRun(rec ast.Object, line int, un *unmappedSet) []message {
	un.addOthers(line, rec, "", "inputs", "outputs")
	in, out := objectField(rec, keyLCInputs), objectField(rec, keyLCOutputs)
	if list := arrayField(out, KeyMessages); isLangChainList(list) {
		un.addOthers(line, in, "inputs.", "messages")
		un.addOthers(line, out, "outputs.", "messages")
		return langChainMessages(nil, list, line, "/outputs/messages", un)
	}
	un.addOthers(line, in, "inputs.", "messages")
	un.addOthers(line, out, "outputs.", "generations", "output")
	var ms []message
	list, base := arrayField(in, KeyMessages), "/inputs/messages"
	if list != nil && list.Len() > 0 {
		if inner, ok := list.Elem(0).Value.(*ast.Array); ok {
			if list.Len() > 1 {
				un.add(line, "inputs.messages beyond the first prompt of a batch")
			}
			list, base = inner, base+"/0"
		}
	}
	ms = langChainMessages(ms, list, line, base, un)
	if gens := arrayField(out, keyLCGenerations); gens != nil && gens.Len() > 0 {
		first, _ := gens.Elem(0).Value.(*ast.Array)
		if first != nil && first.Len() > 0 {
			g, _ := first.Elem(0).Value.(ast.Object)
			un.addOthers(line, g, "outputs.generations[].", "message", "text", "type")
			if m := get(g, keyMessage); m != nil {
				ms = langChainAppend(ms, m, line, "/outputs/generations/0/0/message", un)
			}
			if first.Len() > 1 || gens.Len() > 1 {
				un.add(line, "outputs.generations beyond the first")
			}
		}
	}
	if o := get(out, keyLCOutput); o != nil {
		if obj, ok := o.Value.(ast.Object); ok {
			if _, _, _, isMsg := langChainMessage(obj, ""); isMsg {
				ms = langChainAppend(ms, o, line, "/outputs/output", un)
			} else {
				un.add(line, "outputs.output")
			}
		}
	}
	return ms
}

// langChainMessages appends the messages of a list at base.
func langChainMessages(ms []message, list *ast.Array, line int, base string, un *unmappedSet) []message {
	for i := 0; list != nil && i < list.Len(); i++ {
		ms = langChainAppend(ms, list.Elem(i), line, pointerIndex(base, i), un)
	}
	return ms
}

// langChainAppend appends the message t at path.
func langChainAppend(ms []message, t *ast.Term, line int, at string, un *unmappedSet) []message {
	o, _ := t.Value.(ast.Object)
	typ, f, path, ok := langChainMessage(o, at)
	if !ok || f == nil {
		// Not a message: kept for the rules to report, with no role.
		return append(ms, message{raw: t, obj: o, line: line, pathTerm: strTerm(at), chatIndex: -1, ownCalls: true})
	}
	raw := ast.NewTerm(f)
	role, known := langChainRoles[typ]
	if typ == "chat" {
		role, known = stringField(f, keyRole), true
	}
	if !known {
		role = typ // not a role: the rules report it
	}
	m := message{raw: raw, obj: f, role: role, line: line, pathTerm: strTerm(path), chatIndex: -1, ownCalls: true}
	content := get(f, keyContent)
	m.text, m.hasContent = contentText(content)
	if content != nil {
		if _, ok := content.Value.(ast.String); ok {
			m.textTerm = content
		}
	}
	known2 := []string{"type", "content", "tool_calls", "tool_call_id", "invalid_tool_calls", "status", "role"}
	switch role {
	case "assistant":
		langChainCalls(&m, f, path)
		if ak := objectField(f, keyLCAddKwargs); ak != nil {
			un.addOthers(line, ak, "additional_kwargs.", "tool_calls")
		}
		known2 = append(known2, "additional_kwargs")
	case "tool":
		m.callID = firstPresent(f, keyToolCallID)
		if st := stringField(f, keyStatus); st != "" {
			m.isError = boolTerm(st == "error")
		}
	}
	un.addOthers(line, f, "messages[].", known2...)
	return append(ms, m)
}

// langChainCalls reads an ai message's calls: tool_calls ({"name", "args",
// "id"}), else OpenAI's under additional_kwargs, then the invalid ones.
func langChainCalls(m *message, f ast.Object, path string) {
	calls := arrayField(f, KeyToolCalls)
	callsPath := path + "/tool_calls"
	openAI := false
	if calls == nil || calls.Len() == 0 {
		if ak := arrayField(objectField(f, keyLCAddKwargs), KeyToolCalls); ak != nil {
			calls, callsPath, openAI = ak, path+"/additional_kwargs/tool_calls", true
		}
	}
	for k := 0; calls != nil && k < calls.Len(); k++ {
		c, _ := calls.Elem(k).Value.(ast.Object)
		cp := strTerm(pointerIndex(callsPath, k))
		if openAI {
			fn := objectField(c, keyFunction)
			args, has := callInput(fn)
			m.addCall(stringTerm(c, keyID), stringTerm(fn, keyName), args, has, cp, "")
			continue
		}
		args := get(c, keyLCArgs)
		has := args != nil
		if has {
			_, null := args.Value.(ast.Null)
			has = !null
		}
		m.addCall(stringTerm(c, keyID), stringTerm(c, keyName), args, has, cp, "")
	}
	inv := arrayField(f, keyLCInvalid)
	for k := 0; inv != nil && k < inv.Len(); k++ {
		c, _ := inv.Elem(k).Value.(ast.Object)
		msg := stringField(c, keyLCError)
		if msg == "" {
			msg = "an invalid tool call (its arguments did not parse)"
		}
		m.addCall(stringTerm(c, keyID), stringTerm(c, keyName), get(c, keyLCArgs), get(c, keyLCArgs) != nil, strTerm(pointerIndex(path+"/invalid_tool_calls", k)), msg)
	}
}
