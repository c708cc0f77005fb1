package document

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// OpenAIResponses is a conversation kept as a list of OpenAI Responses API
// input items, one per line or as a JSON array (what the Responses API
// takes as input, and what the Agents SDK's to_input_list() returns):
// {"type": "message", "role", "content": string | [{"type": "input_text" |
// "output_text", "text"}]} (or a message {"role", "content"} without a
// type, which makes a bare list of chat messages one too, such as
// mini-swe-agent's test trajectories),
// {"type": "function_call", "call_id", "name", "arguments"},
// {"type": "function_call_output", "call_id", "output"}, and reasoning and
// built-in tool items. The file is one conversation. A function call joins
// the assistant turn before it (a message or calls, with nothing between),
// as the API answers several calls in one response; its output is a tool
// message.
const OpenAIResponses Format = "openai-responses"

var openAIResponsesAdapter = &Adapter{
	Format:     OpenAIResponses,
	Summary:    `a conversation as a list of OpenAI Responses API input items {"type": "message"|"function_call"|"function_call_output"|"reasoning", …} or of {"role", "content"} messages, per line or as a JSON array`,
	PerFile:    true,
	Detect:     isResponsesItem,
	Shape:      `a Responses API item {"type": "message", "role", "content"}, {"type": "function_call", "call_id", "name", "arguments"} or {"type": "function_call_output", "call_id", "output"}, or a message {"role", "content"}, as its first record`,
	NewBuilder: func(file string, opts Options) Builder { return &openAIResponses{file: file, opts: opts} },
	Unfixable: func(ast.Object) string {
		return "a Responses API item list is one conversation over many records, which fix does not rewrite; check it, or convert it with convert --to openai"
	},
}

var (
	keyRespSummary = ast.StringTerm("summary")
)

// responsesMessageKeys are the members a message without a type may
// have to start a list: a line with any other member is some other
// format's (a goose message line has "created", a LiteLLM dump "extra").
var responsesMessageKeys = map[string]bool{"role": true, "content": true, "name": true, "tool_calls": true, "tool_call_id": true, "id": true}

// responsesRoles are the roles that may open a list of messages.
var responsesRoles = map[string]bool{"system": true, "developer": true, "user": true, "assistant": true}

// isResponsesItem tells an item by its type and the members that type
// requires; a message without a type by its role and its members.
func isResponsesItem(rec ast.Object) bool {
	switch stringField(rec, keyType) {
	case "":
		if !responsesRoles[stringField(rec, keyRole)] || get(rec, keyContent) == nil || get(rec, keyType) != nil {
			return false
		}
		fits := true
		rec.Foreach(func(k, _ *ast.Term) {
			s, _ := k.Value.(ast.String)
			fits = fits && responsesMessageKeys[string(s)]
		})
		return fits
	case "message":
		return isStringMember(rec, keyRole) && get(rec, keyContent) != nil
	case "function_call":
		return isStringMember(rec, keyCallIDu) && isStringMember(rec, keyName) && get(rec, keyArguments) != nil
	case "function_call_output":
		return isStringMember(rec, keyCallIDu) && get(rec, keyOutput) != nil
	case "reasoning":
		return arrayField(rec, keyRespSummary) != nil
	}
	return false
}

// responseItems reads Responses API items into messages.
type responseItems struct {
	ms   []message
	open bool // the last message is an assistant turn later calls join
	un   *unmappedSet
	// prefix names the items' place in messages about what is left out.
	prefix string
}

// add reads one item at path in its line ("" for an item that is its
// line).
func (r *responseItems) add(line int, raw *ast.Term, path string) {
	p, _ := raw.Value.(ast.Object)
	pathTerm := rootPath
	if path != "" {
		pathTerm = strTerm(path)
	}
	typ := stringField(p, keyType)
	if typ == "" && get(p, keyRole) != nil {
		typ = "message" // an easy input message {"role", "content"}
	}
	switch typ {
	case "message":
		// A chat message's tool_calls and tool_call_id are read as in chat
		// (the second pass reads its calls); a Responses message has none.
		// (An Anthropic message's tool_result blocks are tool messages, as
		// in chat.)
		r.ms = appendMessages(r.ms, raw, line, pathTerm, -1)
		r.un.addOthers(line, p, r.prefix+"message.", "type", "role", "content", "tool_calls", "tool_call_id", "name")
		m := r.ms[len(r.ms)-1]
		r.open = m.role == "assistant" && m.toolCalls == nil
	case "function_call", "custom_tool_call", "local_shell_call":
		r.ms = addCallItem(r.ms, r.open, raw, p, typ, line, path, pathTerm, false)
		r.open = true
		r.un.addOthers(line, p, r.prefix+typ+".", "type", "call_id", "name", "arguments", "input", "action")
	case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
		m := message{raw: raw, obj: p, role: "tool", line: line, pathTerm: pathTerm, chatIndex: -1, ownCalls: true}
		out := get(p, keyOutput)
		m.text, m.hasContent = contentText(out)
		if out != nil {
			if _, ok := out.Value.(ast.String); ok {
				m.textTerm = out
			}
		}
		m.callID = firstPresent(p, keyCallIDu)
		r.un.addOthers(line, p, r.prefix+typ+".", "type", "call_id", "output")
		r.ms = append(r.ms, m)
		r.open = false
	case "reasoning":
		// Reasoning is the model's, between its turns: it does not end the
		// assistant turn, and an example has no place for it.
		r.un.add(line, r.prefix+"reasoning items")
	case "":
		// Neither an item nor a message: a message without a role, for
		// the rules to report rather than a guess.
		r.ms = append(r.ms, message{raw: raw, obj: p, line: line, pathTerm: pathTerm, chatIndex: -1, ownCalls: true})
		r.open = false
	default:
		r.un.add(line, r.prefix+"items of type "+typ)
		r.open = false
	}
}

type openAIResponses struct {
	file  string
	opts  Options
	first int
	items responseItems
	un    unmappedSet
}

func (o *openAIResponses) Add(line int, rec ast.Object) *Document {
	if o.first == 0 {
		o.first = line
		o.items.un = &o.un
	}
	o.items.add(line, ast.NewTerm(rec), "")
	return nil
}

func (o *openAIResponses) Finish() *Document {
	if o.first == 0 {
		return nil
	}
	d := newDoc(OpenAIResponses, o.file, o.first, fallbackID(o.file, o.first), o.opts)
	mode := detectMode(o.items.ms, o.opts.ToolCalls)
	d.Value = newDocument(d, mode, o.items.ms, emptyArray, emptyArray, ast.NullTerm())
	d.Unmapped = o.un.list("Responses API members")
	return d
}
