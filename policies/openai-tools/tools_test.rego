package chatlint.openai_tools_test

import data.chatlint.openai_tools

# chat builds a normalized chat document from raw OpenAI messages: role, tool calls and
# tool_call_id as the normalizer reads them.
chat(ms) := {"format": "chat", "mode": "structured", "messages": [norm(ms, i, m) | some i, m in ms]}

norm(ms, i, m) := object.union(
	{
		"index": i, "role": role(m), "text": text(m), "turn": turn(ms, i), "raw": m,
		"tool_calls": [{"index": k, "id": object.get(c, "id", ""), "name": "f", "path": sprintf("/messages/%d/tool_calls/%d", [i, k])} | some k, c in object.get(m, "tool_calls", [])],
	},
	id_of(m),
)

turn(ms, i) := max(s) if {
	s := {j | some j, m in ms; j <= i; m.role == "assistant"}
	count(s) > 0
} else := -1

text(m) := m.content if is_string(m.content)

else := ""

role(m) := m.role if is_string(m.role)

else := ""

id_of(m) := {"tool_call_id": m.tool_call_id} if {
	m.role == "tool"
	m.tool_call_id != null
} else := {}

user(t) := {"role": "user", "content": t}

calls(ids) := {"role": "assistant", "content": null, "tool_calls": [{"id": id, "type": "function", "function": {"name": "f", "arguments": "{}"}} | some id in ids]}

tool(id, c) := {"role": "tool", "tool_call_id": id, "content": c}

acts(ms) := {[a.rule, a.op, object.get(a, "message_index", -1)] | some a in openai_tools.actions with input as chat(ms)}

test_clean_record_has_no_actions if {
	acts([user("q"), calls(["a", "b"]), tool("a", "1"), tool("b", "2"), {"role": "assistant", "content": "ok"}]) == set()
}

# A message without a role is not dropped: the record is left as it is, with a note.
test_message_without_role_keeps_the_record if {
	acts([user("q"), {"content": "x"}, "text"]) == {["record-unreadable", "keep_record", -1]}
	openai_tools.unreadable with input as chat([user("q"), {"content": "x"}, "text"]) == {"messages 1, 2 have no role"}
}

test_tool_messages_without_or_with_unknown_ids if {
	acts([user("q"), {"role": "tool", "content": "x"}, tool("a", "1"), calls(["a"]), tool("a", "2")]) == {
		["tool-result-missing-id", "drop_message", 1],
		["tool-result-unknown-id", "drop_message", 2], # before its call
	}
}

test_second_result_is_the_duplicate_whatever_its_content if {
	acts([user("q"), calls(["a"]), tool("a", "short"), tool("a", "a much better answer")]) == {["tool-result-repeated", "drop_message", 3]}
}

test_separated_result_is_moved_back if {
	ms := [user("q"), calls(["a", "b"]), tool("a", "1"), user("?"), tool("b", "2")]
	some a in openai_tools.actions with input as chat(ms)
	a.op == "move_message"
	a.message_index == 4
	a.after == 2
}

idless := {"role": "assistant", "content": null, "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": "{}"}}]}

test_call_without_id_is_dropped if {
	some a in openai_tools.actions with input as chat([user("q"), idless, {"role": "assistant", "content": "ok"}])
	[a.rule, a.op, a.message_index, a.tool_call_index] == ["tool-call-missing-id", "drop_tool_call", 1, 0]
}

# A fine-tuning record ending on calls without ids (transformers, TRL) teaches them: kept, except
# under the export profile and in formats that are no fine-tuning records.
test_call_without_id_of_the_training_target_is_kept if {
	acts([user("q"), idless]) == set()
	acts([user("q"), idless]) with input.profile as "export" == {["tool-call-missing-id", "drop_tool_call", 1]}
	acts([user("q"), idless]) with input.format as "contract" == {["tool-call-missing-id", "drop_tool_call", 1]}
}

# A call block of the content without an id is not an OpenAI tool_calls entry: not dropped
# (LLaMA-Factory's tool_call parts are such blocks, and one tool message may answer several).
test_call_block_without_id_is_kept if {
	block := {"role": "assistant", "content": [{"type": "tool_use", "name": "f", "input": {}}]}
	doc := chat([user("q"), block, {"role": "assistant", "content": "ok"}])
	blocked := json.patch(doc, [{"op": "add", "path": "/messages/1/tool_calls", "value": [{"index": 0, "id": "", "name": "f", "path": "/messages/1/content/0"}]}])
	{a | some a in openai_tools.actions with input as blocked} == set()
}

test_reused_ids_are_renamed_in_order if {
	ms := [user("q"), calls(["a"]), tool("a", "1"), calls(["a"]), tool("a", "2"), calls(["a"]), tool("a", "3")]
	renames := {[a.message_index, a.id, a.results] | some a in openai_tools.actions with input as chat(ms); a.op == "rename_tool_call_id"}
	renames == {[3, "a_2", [4]], [5, "a_3", [6]]}
	acts(ms) == {["tool-call-id-reused", "rename_tool_call_id", 3], ["tool-call-id-reused", "rename_tool_call_id", 5]}
}

test_exact_repeat_of_previous_message_is_dropped if {
	acts([user("q"), user("q"), {"role": "assistant", "content": "a"}]) == {["message-repeated", "drop_message", 1]}
}

test_null_content_tool_call_messages_are_not_repeats if {
	acts([user("q"), calls(["a"]), tool("a", "1"), calls(["b"]), tool("b", "2")]) == set()
}

test_sentence_repeated_turns_later_is_kept if {
	acts([user("thanks"), {"role": "assistant", "content": "yw"}, user("thanks")]) == set()
}

test_list_content_is_data if {
	parts := [{"type": "text", "text": "a"}, {"type": "image_url", "image_url": {"url": "x"}}]
	acts([user(parts), user(parts), user([{"type": "text", "text": "a"}])]) == {["message-repeated", "drop_message", 1]}
}

# The fast path never hides a defect: it holds on clean records only.
test_clean_fast_path if {
	openai_tools.tools_clean with input as chat([user("q"), calls(["a", "b"]), tool("a", "1"), tool("b", "2"), user("ok")])
	every ms in [
		[user("q"), calls(["a"]), tool("a", "1"), tool("a", "2")], # repeated result
		[user("q"), calls(["a", "b"]), tool("a", "1"), user("?"), tool("b", "2")], # result apart
		[tool("a", "1"), calls(["a"])], # result first
		[user("q"), calls(["a"]), tool("a", "1"), calls(["a"]), tool("a", "2")], # reused id
		[user("q"), calls([""]), {"role": "tool", "content": "x"}], # missing ids
		[user("q"), calls(["a"]), tool("b", "1")], # unknown id
	] {
		not openai_tools.tools_clean with input as chat(ms)
	}
}

test_record_clean_fast_path if {
	openai_tools.record_clean with input as chat([user("q"), {"role": "assistant", "content": "a"}, user("q")])
	not openai_tools.record_clean with input as chat([user("q"), {"content": "no role"}])
	not openai_tools.record_clean with input as chat([user("q"), user("q")])
	not openai_tools.record_clean with input as chat([user("q"), calls(["a"]), tool("b", "1")])
}

# Parallel calls of one message sharing an id: the k-th call takes the k-th result with that id,
# so the second call and the second result are renamed together and nothing is dropped.
test_parallel_calls_sharing_an_id_keep_their_results if {
	ms := [user("q"), calls(["c1", "c1"]), tool("c1", "18C"), tool("c1", "25C"), {"role": "assistant", "content": "ok"}]
	renames := {[a.message_index, a.tool_call_index, a.id, a.results] | some a in openai_tools.actions with input as chat(ms); a.op == "rename_tool_call_id"}
	renames == {[1, 1, "c1_2", [3]]}
	acts(ms) == {["tool-call-id-reused", "rename_tool_call_id", 1]}
}

# A third result for two parallel calls is still a duplicate.
test_result_beyond_the_parallel_calls_is_a_duplicate if {
	ms := [user("q"), calls(["c1", "c1"]), tool("c1", "1"), tool("c1", "2"), tool("c1", "3")]
	acts(ms) == {["tool-call-id-reused", "rename_tool_call_id", 1], ["tool-result-repeated", "drop_message", 4]}
}

# A record with pieces the pack cannot read is left as it is, with one keep_record action that
# says why, and no other action; a clean record is not looked at.
test_unreadable_record_is_kept if {
	lf_call := {"role": "assistant", "content": [{"type": "tool_call", "value": "{\"name\": \"f\", \"arguments\": {}}"}]}
	lf_res := {"role": "tool", "content": [{"type": "text", "value": "48"}]}
	d := object.union(chat([user("q"), lf_call, lf_res]), {"raw": {"tools": "[]"}})
	not openai_tools.tools_clean with input as d # the tool message has no tool_call_id
	[a | some a in openai_tools.actions with input as d] == [{
		"op": "keep_record", "rule": "record-unreadable",
		"reason": "content parts keyed value instead of text (LLaMA-Factory) in message 1, 2; its tools is string, not a list",
	}]
}

test_unknown_part_type_and_string_tool_calls_are_unreadable if {
	ms := [user([{"type": "hologram", "data": "x"}]), {"role": "assistant", "content": null, "tool_calls": "[]"}, tool("a", "1")]
	reasons := openai_tools.unreadable with input as chat(ms)
	reasons == {"message 0: content part 0 is of type \"hologram\", which fix does not know", "message 1: its tool_calls is string, not a list"}
	acts(ms) == {["record-unreadable", "keep_record", -1]}
}

# tool_calls or content given as an object: its members are named, never printed with %d
# ("tool call %!d(string=id)").
test_object_tool_calls_and_content_are_worded if {
	ms := [user({"type": "text", "n": 1}), {"role": "assistant", "content": null, "tool_calls": {"id": "c1"}}, tool("a", "1")]
	reasons := openai_tools.unreadable with input as chat(ms)
	reasons == {"message 0: content member \"n\" is number, not an object or a string", "message 1: its tool_calls is object, not a list"}
}

test_known_parts_are_readable if {
	parts := [
		"plain", {"text": "no type"}, {"type": "text", "text": "a"}, {"type": "input_text", "text": "b"},
		{"type": "image_url", "image_url": {"url": "x"}}, {"type": "thinking", "thinking": "hm"},
	]
	count(openai_tools.unreadable) == 0 with input as chat([user(parts), calls(["a"]), tool("a", "1")])
}

# Results that only need moving take the paired path: each result's issuer is its turn, and no
# result is unknown or a duplicate. Any other defect of the calls or results takes the general
# path, and a message dropped as a repeat does too (its calls would issue nothing).
test_paired_path if {
	apart := [user("q"), calls(["a", "b"]), tool("a", "1"), user("?"), tool("b", "2"), calls(["c"]), user("!"), tool("c", "3")]
	openai_tools.paired with input as chat(apart)
	openai_tools.answer_of with input as chat(apart) == {2: 1, 4: 1, 7: 5}
	openai_tools.issuer_of with input as chat(apart) == {2: 1, 4: 1, 7: 5}
	openai_tools.unknown with input as chat(apart) == set()
	openai_tools.duplicate with input as chat(apart) == set()
	acts(apart) == {["tool-result-misplaced", "move_message", 4], ["tool-result-misplaced", "move_message", 7]}
	not openai_tools.paired with input as chat([user("q"), calls(["a"]), tool("a", "1")]) # clean
	every ms in [
		[user("q"), calls(["a"]), user("?"), tool("a", "1"), tool("a", "2")], # repeated result
		[user("q"), calls(["a"]), user("?"), tool("b", "1")], # unknown id
		[user("q"), calls(["a"]), tool("a", "1"), calls(["a"]), user("?"), tool("a", "2")], # reused id
		[user("q"), calls(["a", ""]), user("?"), tool("a", "1")], # a call without an id
		[user("q"), calls(["a"]), user("?"), {"role": "tool", "content": "x"}], # a result without one
		[user("q"), user("q"), calls(["a"]), user("?"), tool("a", "1")], # a repeat
	] {
		not openai_tools.paired with input as chat(ms)
	}
}
