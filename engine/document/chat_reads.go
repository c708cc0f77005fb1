package document

import "github.com/chatlint/chatlint/engine/astjson"

// chatReads is what fromRecord reads of a chat or contract record to build a
// document with the members f keeps (Adapter.Reads):
//
//   - conversation_id and id, always: they name the document;
//   - the messages (or a preference record's input.messages) when a rule
//     reads them, the mode or the lookup: every member of each message, but
//     a string content only as far as the record's mode depends on it
//     (whether it is empty, whether it holds an inline tool-call tag) unless
//     a rule reads the text, and a tool call's arguments only as "present and
//     not null" unless a rule reads them or the lookup;
//   - tools when a rule reads them or the lookup.
//
// A rule reading raw (the record's or a message's) gets the record whole.
func chatReads(f *Fields) *astjson.Projection {
	if f.raw || f.msgRaw {
		if f.messages && !f.plainMessages {
			return rawMessageViews
		}
		return nil
	}
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
	return chatProjections[k]
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

func chatProjection(k int) *astjson.Projection {
	top := map[string]*astjson.Projection{"conversation_id": nil, "id": nil}
	if k&readMessages != 0 {
		msgs := &astjson.Projection{Elem: messageReads(k)}
		top["messages"] = msgs
		top["input"] = &astjson.Projection{Object: true, Members: map[string]*astjson.Projection{"messages": msgs}}
	}
	if k&readTools != 0 {
		top["tools"] = nil
	}
	return &astjson.Projection{Object: true, Members: top}
}

// messageReads is what readMessage and structuredCalls read of a message.
func messageReads(k int) *astjson.Projection {
	members := map[string]*astjson.Projection{}
	if k&readText == 0 {
		// detectMode and parseInline look for these tags in the text; a
		// content list is read whole, as its parts' texts are joined.
		members["content"] = &astjson.Projection{Probe: true, Needles: []string{tagCallOpen, tagResultStart}}
	}
	if k&readArguments == 0 {
		// callInput only asks whether the arguments are there and not null.
		args := &astjson.Projection{Stub: true}
		withArgs := func(more map[string]*astjson.Projection) *astjson.Projection {
			more["arguments"], more["input"] = args, args
			return &astjson.Projection{Object: true, KeepOthers: true, Members: more}
		}
		fn := withArgs(map[string]*astjson.Projection{})
		members["tool_calls"] = &astjson.Projection{Elem: withArgs(map[string]*astjson.Projection{"function": fn})}
	}
	return &astjson.Projection{Object: true, KeepOthers: true, Members: members}
}

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
