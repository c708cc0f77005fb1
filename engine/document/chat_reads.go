package document

import "github.com/chatlint/chatlint/engine/astjson"

// chatReads is what fromRecord reads of a chat or contract record to build a
// document with the members f keeps (Adapter.Reads):
//
//   - conversation_id and id, always: they name the document;
//   - the messages (or a preference record's input.messages, or
//     mistral-finetune's interactions) when a rule
//     reads them, the mode or the lookup: of each message the members the
//     builder reads (messageReads; any other only as "there and not null"),
//     a string content only as far as the record's mode depends on it
//     (whether it is empty, whether it holds an inline tool-call tag) unless
//     a rule reads the text, and a tool call's arguments only as "present and
//     not null" unless a rule reads them or the lookup;
//   - tools when a rule reads them or the lookup.
//
// A rule reading raw (the record's or a message's) gets the record whole,
// unless the analysis says what of it the rules read (Fields.WithRaw): then
// that too (raw_reads.go).
func chatReads(f *Fields) *astjson.Projection {
	k := chatReadKind(f)
	if f.raw || f.msgRaw {
		views := f.messages && !f.plainMessages
		if f.rawReads != nil {
			return f.rawReads.projection(k, views)
		}
		if views {
			return rawMessageViews
		}
		return nil
	}
	return chatProjections[k]
}

// chatReadKind is what the builder reads of a chat record under f.
func chatReadKind(f *Fields) int {
	k := 0
	if f.mode || f.messages || f.lookup { // needsMode, f not All
		k |= readMessages
	}
	if f.text {
		k |= readText
	}
	if f.callArguments || f.lookup {
		k |= readArguments
	}
	if f.tools || f.lookup {
		k |= readTools
	}
	return k
}

const (
	readMessages = 1 << iota
	readText
	readArguments
	readTools
	chatReadKinds = 1 << iota
)

// chatProjections holds one projection per combination of what chatReads
// looks at, built once: every record of a run decodes with the same one.
var chatProjections = func() (ps [chatReadKinds]*astjson.Projection) {
	for k := range ps {
		ps[k] = chatProjection(k)
	}
	return ps
}()

// chatProjection decodes the record itself as a view too: only the builder
// reads it (a rule reading raw gets another projection), by a few lookups
// that compare keys instead of hashing them.
func chatProjection(k int) *astjson.Projection {
	top := map[string]*astjson.Projection{"conversation_id": nil, "id": nil}
	if k&readMessages != 0 {
		msgs := &astjson.Projection{Elem: messageReads(k)}
		top["messages"] = msgs
		top["interactions"] = msgs
		top["input"] = &astjson.Projection{Object: true, Members: map[string]*astjson.Projection{"messages": msgs}}
	}
	if k&readTools != 0 {
		top["tools"] = nil
	}
	return &astjson.Projection{Object: true, View: true, Members: top}
}

// messageReads is what readMessage and structuredCalls read of a message:
// the members messageMembers names; any other member only as "there and not
// null" (nothing reads it: its value is in the document only as the
// message's raw, and a rule reading raw gets the record whole), so that a
// 60 MB list in a member chat does not know is not built.
func messageReads(k int) *astjson.Projection {
	members := map[string]*astjson.Projection{}
	for _, m := range messageMembers {
		members[m] = nil
	}
	// A content list whose parts are all numbers, booleans or null holds no
	// text and no call: its first part tells as much as all of them
	// (astjson's Dense), and a 60 MB one is not built.
	members["content"] = &astjson.Projection{Dense: 1}
	if k&readText == 0 {
		// detectMode and parseInline look for these tags in the text; a
		// content list is read whole, as its parts' texts are joined.
		members["content"] = &astjson.Projection{Probe: true, Needles: []string{tagCallOpen, tagResultStart}, Dense: 1}
	}
	if k&readArguments == 0 {
		// callInput only asks whether the arguments are there and not null.
		args := &astjson.Projection{Stub: true}
		withArgs := func(more map[string]*astjson.Projection) *astjson.Projection {
			more["arguments"], more["input"] = args, args
			return &astjson.Projection{Object: true, KeepOthers: true, View: true, Members: more}
		}
		fn := withArgs(map[string]*astjson.Projection{})
		members["tool_calls"] = &astjson.Projection{Elem: withArgs(map[string]*astjson.Projection{"function": fn})}
	} else {
		members["tool_calls"] = &astjson.Projection{Elem: &astjson.Projection{Object: true, KeepOthers: true, View: true,
			Members: map[string]*astjson.Projection{"function": {Object: true, KeepOthers: true, View: true}}}}
	}
	// Only the builder reads what this projection decodes (a rule that
	// reads raw gets the record through another projection): a message,
	// its calls and their functions are views, read by a few lookups each,
	// rather than OPA objects, which hash and map every member on insert.
	return &astjson.Projection{Object: true, KeepOthers: true, View: true, Members: members, Others: stub}
}

// stub builds a value as "there and not null" only.
var stub = &astjson.Projection{Stub: true}

// messageMembers are the members of a message the builder reads as they are
// (readMessage, appendMessages, structuredCalls), besides content and
// tool_calls; a few more that rules name are kept too, although a rule
// reading them reads the message's raw and so the record whole.
var messageMembers = []string{"role", "stop_reason", "stopReason", "tool_call_id", "toolCallId",
	"toolUseId", "tool_use_id", "isError", "is_error", "tool_calls", "name", "type", "id", "function_call"}

// rawMessageViews decodes a record whole, the elements of its messages
// array, their tool calls and the calls' functions as astjson.ObjectViews:
// the record's raw messages are read by the builder and by a few rules,
// each by a few lookups, and no Rego sees them (the document's messages are
// MessageValues, and Document.Materialized gives everything else plain
// objects).
var rawMessageViews = &astjson.Projection{Object: true, KeepOthers: true, Members: map[string]*astjson.Projection{
	"messages": {Elem: &astjson.Projection{Object: true, KeepOthers: true, View: true, Members: map[string]*astjson.Projection{
		"tool_calls": {Elem: &astjson.Projection{Object: true, KeepOthers: true, View: true, Members: map[string]*astjson.Projection{
			"function": {Object: true, KeepOthers: true, View: true},
		}}},
	}}},
}}
