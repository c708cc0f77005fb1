package document

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// OpenHands is an OpenHands event stream (a saved trajectory): a JSON array
// of events {"id", "timestamp", "source": "user"|"agent"|"environment",
// "message", "action" | "observation", "args" | "content", "extras",
// "cause", "tool_call_metadata": {"function_name", "tool_call_id",
// "model_response"}}. Events have no roles; the conversation is read as
// OpenHands' own ConversationMemory sends it to the model:
//
//   - a "system" action is the system prompt (args.content);
//   - a "message" action is a user or assistant message by its source
//     (args.content, else message);
//   - an action with tool_call_metadata is a tool call of the model
//     response it came from (model_response.id): the actions of one
//     response are one assistant message, its text the response's content
//     (else the action's thought), each call's arguments the response's
//     own tool call of that id (else the action's args);
//   - an observation with tool_call_metadata is the call's result (its
//     content), flagged when the observation is an "error".
//
// Every other event (agent state changes, recalls, null observations) is
// an entry only.
const OpenHands Format = "openhands"

var openHandsAdapter = &Adapter{
	Format:     OpenHands,
	Summary:    `an OpenHands event stream: a JSON array of events {"id", "timestamp", "source", "action"|"observation", "args"|"content", "tool_call_metadata"}`,
	PerFile:    true,
	Detect:     isOpenHandsEvent,
	Shape:      `an OpenHands event {"id": number, "source": string, "action" or "observation": string} as its first record`,
	NewBuilder: func(file string, opts Options) Builder { return &openHands{file: file, opts: opts} },
	Unfixable: func(ast.Object) string {
		return "an OpenHands event stream links actions and observations by cause, which fix does not rewrite; check it, or convert it with convert --to openai"
	},
}

var (
	keyOHSource      = ast.StringTerm("source")
	keyOHAction      = ast.StringTerm("action")
	keyOHObservation = ast.StringTerm("observation")
	keyOHArgs        = ast.StringTerm("args")
	keyOHCause       = ast.StringTerm("cause")
	keyOHMeta        = ast.StringTerm("tool_call_metadata")
	keyOHFuncName    = ast.StringTerm("function_name")
	keyOHModelResp   = ast.StringTerm("model_response")
	keyOHThought     = ast.StringTerm("thought")
)

// isOpenHandsEvent tells an event by its numeric id, its string source and
// its action or observation name.
func isOpenHandsEvent(rec ast.Object) bool {
	id := get(rec, keyID)
	if id == nil {
		return false
	}
	if _, ok := id.Value.(ast.Number); !ok {
		return false
	}
	return isStringMember(rec, keyOHSource) && (isStringMember(rec, keyOHAction) || isStringMember(rec, keyOHObservation))
}

type openHands struct {
	file    string
	opts    Options
	first   int
	entries []*ast.Term
	ms      []message
	tools   *ast.Term
	// response is the model_response id of the open assistant message,
	// which later actions of the same response join.
	response string
	un       unmappedSet
}

func (o *openHands) Add(line int, rec ast.Object) *Document {
	if o.first == 0 {
		o.first = line
	}
	action, observation := stringField(rec, keyOHAction), stringField(rec, keyOHObservation)
	e := ast.NewObjectWithCapacity(7)
	e.Insert(KeyIndex, intTerm(len(o.entries)))
	e.Insert(KeyLine, intTerm(line))
	if action != "" {
		e.Insert(keyType, strTerm(action))
	} else {
		e.Insert(keyType, strTerm(observation))
	}
	for _, k := range []*ast.Term{keyID, keyOHSource, keyOHCause, keyTimestamp} {
		if t := get(rec, k); t != nil {
			e.Insert(k, t)
		}
	}
	e.Insert(KeyRaw, ast.NewTerm(rec))
	o.entries = append(o.entries, ast.NewTerm(e))

	o.un.addOthers(line, rec, "events[].", "action", "observation", "args", "content", "tool_call_metadata")
	meta := objectField(rec, keyOHMeta)
	args := objectField(rec, keyOHArgs)
	switch {
	case action == "system":
		m := o.msg(line, rec, "system")
		m.text, m.hasContent = contentText(get(args, keyContent))
		o.ms = append(o.ms, m)
		if t := get(args, KeyTools); t != nil {
			if arr, ok := t.Value.(*ast.Array); ok {
				tools := make([]*ast.Term, arr.Len())
				for i := range tools {
					tools[i] = toolTerm(i, arr.Elem(i), pointerIndex("/args/tools", i))
				}
				o.tools = ast.ArrayTerm(tools...)
			}
		}
	case action == "message":
		role := "user"
		if stringField(rec, keyOHSource) == "agent" {
			role = "assistant"
		}
		m := o.msg(line, rec, role)
		m.text, m.hasContent = contentText(get(args, keyContent))
		if !m.hasContent {
			m.text, m.hasContent = contentText(get(rec, keyMessage))
		}
		o.ms = append(o.ms, m)
	case action != "" && meta != nil:
		o.call(line, rec, args, meta)
		return nil
	case observation != "" && meta != nil:
		m := o.msg(line, rec, "tool")
		m.text, m.hasContent = contentText(get(rec, keyContent))
		m.callID = stringTerm(meta, keyToolCallID)
		m.isError = boolTerm(observation == "error")
		o.ms = append(o.ms, m)
	case action == "" && observation == "":
		// Not an OpenHands event: a message without a role, for the rules
		// to report rather than a guess.
		o.ms = append(o.ms, o.msg(line, rec, ""))
	default:
		kind := "observation " + observation
		if action != "" {
			kind = "action " + action
		}
		o.un.add(line, "events without a tool call ("+kind+", …)")
		return nil
	}
	o.response = ""
	return nil
}

// msg starts a message that is the whole event.
func (o *openHands) msg(line int, rec ast.Object, role string) message {
	return message{raw: ast.NewTerm(rec), obj: rec, role: role, line: line, pathTerm: rootPath, chatIndex: -1, ownCalls: true}
}

// call adds a tool-calling action to the assistant message of its model
// response.
func (o *openHands) call(line int, rec, args, meta ast.Object) {
	resp := objectField(meta, keyOHModelResp)
	respID := stringField(resp, keyID)
	var choice ast.Object
	if choices := arrayField(resp, keyChoices); choices != nil && choices.Len() > 0 {
		c, _ := choices.Elem(0).Value.(ast.Object)
		choice = objectField(c, keyMessage)
	}
	if respID == "" || respID != o.response || len(o.ms) == 0 {
		m := o.msg(line, rec, "assistant")
		m.text, m.hasContent = contentText(get(choice, keyContent))
		if !m.hasContent {
			m.text, m.hasContent = contentText(get(args, keyOHThought))
		}
		o.ms = append(o.ms, m)
		o.response = respID
	}
	m := &o.ms[len(o.ms)-1]
	if m.line != line {
		if len(m.lines) == 0 {
			m.lines = []int{m.line}
		}
		m.lines = append(m.lines, line)
	}
	id := stringTerm(meta, keyToolCallID)
	argsTerm, has := get(rec, keyOHArgs), get(rec, keyOHArgs) != nil
	if calls := arrayField(choice, KeyToolCalls); calls != nil {
		for k := 0; k < calls.Len(); k++ {
			c, _ := calls.Elem(k).Value.(ast.Object)
			if get(c, keyID) != nil && get(c, keyID).Equal(id) {
				argsTerm, has = callInput(objectField(c, keyFunction))
			}
		}
	}
	m.addCallAt(line, id, stringTerm(meta, keyOHFuncName), argsTerm, has, strTerm("/tool_call_metadata"))
	if resp != nil {
		o.un.add(line, "tool_call_metadata.model_response (the model's whole response, usage and all)")
	}
}

func (o *openHands) Finish() *Document {
	if o.first == 0 {
		return nil
	}
	d := newDoc(OpenHands, o.file, o.first, fallbackID(o.file, o.first), o.opts)
	tools := o.tools
	if tools == nil {
		tools = emptyArray
	}
	mode := detectMode(o.ms, o.opts.ToolCalls)
	d.Value = newDocument(d, mode, o.ms, tools, ast.ArrayTerm(o.entries...), ast.NullTerm())
	d.Unmapped = o.un.list("OpenHands members")
	return d
}
