package chatlint.openai_tools_test

import data.chatlint.openai_tools

# inline(format, ms) builds a normalized inline-mode document from messages already given as the
# normalizer reads them (role, text, raw, tool_calls, tool_call_id): index, turn and the lookup
# indexes are added.
inline(format, ms) := {
	"format": format, "mode": "inline",
	"messages": [object.union(m, {"index": i, "turn": turn(ms, i)}) | some i, m in ms],
	"lookup": {
		"assistant": [i | some i, m in ms; m.role == "assistant"],
		"tool": [i | some i, m in ms; m.role == "tool"],
	},
}

q := {"role": "user", "text": "6*8?", "raw": {"role": "user", "content": "6*8?"}, "tool_calls": []}

# asst(ids): an assistant message with one inline call per id (the normalized ids: a payload's
# own, the result's at its position, or inline-M-K).
asst(ids) := {
	"role": "assistant", "text": "<tool_call>...</tool_call>", "raw": {"role": "assistant", "content": "<tool_call>...</tool_call>"},
	"tool_calls": [{"index": k, "id": id, "name": "multiply"} | some k, id in ids],
}

# res(content): a tool message without an id; res_id(content, id): one whose id the normalizer
# read (from the tag's attribute or the tool_call_id member).
res(content) := {"role": "tool", "text": content, "raw": {"role": "tool", "content": content}, "tool_calls": []}

res_id(content, id) := object.union(res(content), {"tool_call_id": id})

inline_acts(format, ms) := {[a.rule, a.op, object.get(a, "message_index", -1), object.get(a, "content", null)] |
	some a in openai_tools.actions with input as inline(format, ms)
}

test_inline_result_without_wrapper_is_wrapped_with_the_call_at_its_position if {
	inline_acts("chat", [q, asst(["inline-1-0"]), res("48")]) == {[
		"inline-tool-result-unwrapped", "set_content", 2,
		"<tool_result tool_call_id=\"inline-1-0\">48</tool_result>",
	]}
}

test_inline_result_keeps_its_own_id if {
	inline_acts("chat", [q, asst(["call_1"]), res_id("{\"temp_c\": 18}", "call_1")]) == {[
		"inline-tool-result-unwrapped", "set_content", 2,
		"<tool_result tool_call_id=\"call_1\">{\"temp_c\": 18}</tool_result>",
	]}
}

test_inline_tag_without_id_or_close_is_rewrapped if {
	inline_acts("chat", [q, asst(["inline-1-0"]), res("<tool_result>48")]) == {[
		"inline-tool-result-unwrapped", "set_content", 2,
		"<tool_result tool_call_id=\"inline-1-0\">48</tool_result>",
	]}
}

test_inline_parts_keep_their_parts if {
	parts := [{"type": "text", "text": "63"}]
	m := {"role": "tool", "text": "63", "raw": {"role": "tool", "content": parts}, "tool_calls": []}
	inline_acts("pi-session", [q, asst(["m1", "inline-1-1"]), res_id("<tool_result tool_call_id=\"m1\">48</tool_result>", "m1"), m]) == {[
		"inline-tool-result-unwrapped", "set_content", 3,
		[{"type": "text", "text": "<tool_result tool_call_id=\"inline-1-1\">"}, {"type": "text", "text": "63"}, {"type": "text", "text": "</tool_result>"}],
	]}
}

test_inline_orphans_are_dropped if {
	inline_acts("chat", [
		res_id("<tool_result tool_call_id=\"early\">1</tool_result>", "early"), # before any call
		q, asst(["m1"]),
		res_id("<tool_result tool_call_id=\"m1\">48</tool_result>", "m1"),
		res("stray"), # no id, no call at its position
		res_id("<tool_result tool_call_id=\"c9\">3</tool_result>", "c9"), # answers no call of its block
	]) == {
		["inline-tool-result-orphan", "drop_message", 0, null],
		["inline-tool-result-orphan", "drop_message", 4, null],
		["inline-tool-result-orphan", "drop_message", 5, null],
	}
}

test_inline_result_of_a_call_without_a_name_is_an_orphan if {
	bad := json.patch(asst(["inline-1-0"]), [{"op": "replace", "path": "/tool_calls/0/name", "value": ""}])
	inline_acts("chat", [q, bad, res("48")]) == {["inline-tool-result-orphan", "drop_message", 2, null]}
}

test_clean_inline_record_has_no_actions if {
	inline_acts("chat", [q, asst(["m1"]), res_id("<tool_result tool_call_id=\"m1\">48</tool_result>", "m1")]) == set()
}

# ShareGPT (Hermes) results are <tool_response> turns: never wrapped in <tool_result>, though an
# orphan is dropped there too.
test_sharegpt_results_are_not_wrapped if {
	inline_acts("sharegpt", [q, asst(["inline-1-0"]), res_id("<tool_response>48</tool_response>", "inline-1-0")]) == set()
	inline_acts("sharegpt", [res("<tool_response>1</tool_response>"), q]) == {["inline-tool-result-orphan", "drop_message", 0, null]}
}

# The structured rules leave inline records alone, and the inline rules structured ones.
test_inline_rules_act_only_in_inline_mode if {
	doc := json.patch(inline("chat", [q, asst(["inline-1-0"]), res("48")]), [{"op": "replace", "path": "/mode", "value": "structured"}])
	{a.rule | some a in openai_tools.actions with input as doc} == {"tool-result-missing-id"}
}

# Gemini results are functionResponse parts, with no text to wrap and no id in inline mode: left
# alone.
test_gemini_function_responses_are_left_alone if {
	fr := {"role": "tool", "text": "", "raw": {"functionResponse": {"name": "multiply", "response": {"result": 48}}}, "tool_calls": []}
	inline_acts("gemini", [q, asst(["inline-1-0"]), fr]) == set()
}

# A result with no id after an assistant message whose calls are not inline tags answers nothing
# by its position.
test_position_counts_only_after_inline_calls if {
	structured_call := {"role": "assistant", "text": "", "raw": {"role": "assistant", "content": null}, "tool_calls": [{"index": 0, "id": "c1", "name": "multiply"}]}
	inline_acts("chat", [q, asst(["m1"]), res_id("<tool_result tool_call_id=\"m1\">48</tool_result>", "m1"), structured_call, res("49")]) == {["inline-tool-result-orphan", "drop_message", 4, null]}
}
