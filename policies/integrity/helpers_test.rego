package chatlint.integrity_test

# Test helpers: a small stand-in for the Go normalizer, for OpenAI-style (structured) chat
# records, so the tests can be written with raw messages.

import data.chatlint.integrity

tool_def(name) := {"type": "function", "function": {
	"name": name,
	"parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
}}

# chat(msgs) is the normalized document of a structured chat record.
chat(msgs) := with_lookup({
	"format": "chat",
	"file": "t.jsonl",
	"line": 1,
	"mode": "structured",
	"messages": [n | some i, m in msgs; n := norm_msg(msgs, i, m)],
	"tools": [{"index": 0, "name": "search", "line": 1, "path": "/tools/0", "raw": tool_def("search")}],
	"entries": [],
	"raw": {"messages": msgs, "tools": [tool_def("search")]},
})

# with_lookup(doc) is doc with the lookup field the normalizer builds from its messages. A test
# that replaces or edits the messages of a document passes the result through it, as the rules
# read the indexes rather than the messages.
with_lookup(doc) := object.union(doc, {"lookup": lookup_of(doc.messages)})

# lookup_of(ms) is the lookup field for normalized messages ms (docs/document.md).
lookup_of(ms) := {
	"assistant": [i | some i, m in ms; m.role == "assistant"],
	"tool": [i | some i, m in ms; m.role == "tool"],
	"calls": {[i, c.id] | some i, m in ms; some c in m.tool_calls},
	"call_ids": {c.id | some m in ms; some c in m.tool_calls},
	"call_names": {c.name | some m in ms; some c in m.tool_calls},
	"results": {[m.turn, m.tool_call_id] | some m in ms; m.role == "tool"; m.tool_call_id != null},
	"tool_call_lists": [i | some i, m in ms; object.get(object.get(m, "raw", {}), "tool_calls", null) != null],
}

norm_msg(msgs, i, m) := object.union(
	{
		"index": i,
		"role": object.get(m, "role", ""),
		"text": text_of(m),
		"has_content": has_content(m),
		"tool_calls": calls_of(m, i),
		"turn": turn_of(msgs, i),
		"line": 1,
		"path": sprintf("/messages/%d", [i]),
		"raw": m,
	},
	tcid(m),
)

text_of(m) := m.content if {
	is_string(m.content)
} else := concat("\n", [p.text | some p in m.content; is_string(p.text)]) if {
	is_array(m.content)
} else := ""

has_content(m) if {
	c := m.content
	c != null
	c != ""
	c != []
}

else := false

calls_of(m, i) := [c |
	some k, tc in m.tool_calls
	is_object(tc)
	c := {
		"index": k,
		"id": str(object.get(tc, "id", "")),
		"name": str(object.get(object.get(tc, "function", {}), "name", "")),
		"arguments": object.get(object.get(tc, "function", {}), "arguments", null),
		"has_input": object.get(object.get(tc, "function", {}), "arguments", null) != null,
		"path": sprintf("/messages/%d/tool_calls/%d", [i, k]),
	}
] if {
	is_array(m.tool_calls)
} else := []

str(x) := x if is_string(x)

else := ""

tcid(m) := {"tool_call_id": m.tool_call_id} if {
	m.role == "tool"
	m.tool_call_id
} else := {}

turn_of(msgs, i) := t if {
	t := max({j | some j, x in msgs; j <= i; x.role == "assistant"})
} else := -1

# Raw message builders.
sys := {"role": "system", "content": "You are helpful."}

user(s) := {"role": "user", "content": s}

assistant(s) := {"role": "assistant", "content": s}

call(id, name) := {"id": id, "type": "function", "function": {"name": name, "arguments": "{\"q\": \"x\"}"}}

calls(cs) := {"role": "assistant", "tool_calls": cs}

result(id, content) := {"role": "tool", "tool_call_id": id, "content": content}

# Findings of the pack for a document, by set.
denied(doc) := fs if {
	fs := integrity.deny with input as doc
}

warned(doc) := fs if {
	fs := integrity.warn with input as doc
}

all_findings(doc) := denied(doc) | warned(doc)

# Findings of one rule: {[severity, message_index or tool/entry index]}.
hits(doc, rule) := {[s, loc(f)] |
	some f in denied(doc)
	f.rule == rule
	s := object.get(f, "severity", "error")
} | {[s, loc(f)] |
	some f in warned(doc)
	f.rule == rule
	s := object.get(f, "severity", "warning")
}

loc(f) := f.message_index if {
	f.message_index
} else := f.tool_index if {
	f.tool_index
} else := f.entry_index if {
	f.entry_index
} else := null

test_helper_lookup if {
	d := chat([sys, user("q"), calls([call("c1", "search"), call("c2", "fetch")]), result("c1", "ok"), {"role": "tool", "content": "?"}, assistant("done")])
	d.lookup == {
		"assistant": [2, 5],
		"tool": [3, 4],
		"calls": {[2, "c1"], [2, "c2"]},
		"call_ids": {"c1", "c2"},
		"call_names": {"search", "fetch"},
		"results": {[2, "c1"]},
		"tool_call_lists": [2],
	}
	chat([]).lookup == {"assistant": [], "tool": [], "calls": set(), "call_ids": set(), "call_names": set(), "results": set(), "tool_call_lists": []}
}

test_helper_turns if {
	d := chat([sys, user("q"), calls([call("c1", "search")]), result("c1", "ok"), assistant("done")])
	[m.turn | some m in d.messages] == [-1, -1, 2, 2, 4]
	d.messages[3].tool_call_id == "c1"
	d.messages[2].tool_calls[0].name == "search"
}
