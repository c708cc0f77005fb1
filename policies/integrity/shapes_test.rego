package chatlint.integrity_test

# tool-calls-shape and inline-tool-call-tags.

with_tools(raws) := object.union(chat([user("x"), assistant("y")]), {"tools": [t |
	some i, raw in raws
	t := {"index": i, "name": tool_name(raw), "line": 1, "path": sprintf("/tools/%d", [i]), "raw": raw}
]})

tool_name(raw) := raw.function.name if {
	is_string(raw.function.name)
} else := raw.name if {
	is_string(raw.name)
} else := ""

test_tool_calls_shape_valid if {
	d := chat([user("x"), calls([call("c1", "search")]), result("c1", "ok"), assistant("y"), {"role": "assistant", "content": "z", "tool_calls": null}])
	hits(d, "tool-calls-shape") == set()
}

test_tool_calls_not_a_list if {
	d := chat([user("x"), {"role": "assistant", "content": "y", "tool_calls": {"id": "c1"}}])
	hits(d, "tool-calls-shape") == {["error", 1]}
	some f in denied(d)
	f.path == "/messages/1/tool_calls"
}

test_tool_calls_bad_entries if {
	d := chat([
		user("x"),
		calls([
			"c1",
			{"id": "c2", "type": "function"},
			{"id": "c3", "function": {"name": ""}},
			{"id": "c4", "function": {"name": 7, "arguments": "{}"}},
			call("c5", "search"),
		]),
		result("c5", "ok"),
		assistant("y"),
	])
	paths := {f.path | some f in denied(d); f.rule == "tool-calls-shape"}
	paths == {"/messages/1/tool_calls/0", "/messages/1/tool_calls/1", "/messages/1/tool_calls/2", "/messages/1/tool_calls/3"}
}

test_tool_calls_shape_only_in_structured_mode if {
	d := object.union(chat([user("x"), {"role": "assistant", "content": "y", "tool_calls": "bad"}]), {"mode": "inline"})
	hits(d, "tool-calls-shape") == set()
}

inline_assistant(i, text) := {"index": i, "role": "assistant", "text": text, "has_content": true, "tool_calls": [], "turn": i, "raw": {"role": "assistant", "content": text}}

test_inline_tool_call_tags if {
	d := with_lookup(object.union(chat([user("x")]), {"mode": "inline", "messages": [
		inline_assistant(0, "<tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call><tool_call>{\"name\": \"b\"}"),
		inline_assistant(1, "<tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call>\n<tool_call>{}</tool_call>"),
		inline_assistant(2, "done </tool_call>"),
		inline_assistant(3, "no tags"),
	]}))
	hits(d, "inline-tool-call-tags") == {["error", 0], ["error", 2]}
}

test_inline_tool_call_tags_only_in_inline_mode if {
	d := chat([user("x"), assistant("<tool_call>")])
	hits(d, "inline-tool-call-tags") == set()
}

# tool-calls-shape reads every message's raw tool_calls in one reference and keeps the assistant
# messages afterwards: a malformed tool_calls on another role is not reported, the same one on an
# assistant message is.
test_tool_calls_shape_only_on_assistant_messages if {
	bad_list := {"role": "user", "content": "x", "tool_calls": {"id": "c1"}}
	bad_entry := {"role": "tool", "tool_call_id": "c1", "content": "ok", "tool_calls": ["c1"]}
	hits(chat([bad_list, bad_entry, assistant("y")]), "tool-calls-shape") == set()
	d := chat([
		user("x"),
		object.union(bad_list, {"role": "assistant"}),
		object.union(bad_entry, {"role": "assistant"}),
	])
	hits(d, "tool-calls-shape") == {["error", 1], ["error", 2]}
}
