package chatlint.integrity_test

import data.chatlint.integrity

# A clean record with a tool call, its result and a final answer: nothing fires.
clean := chat([
	sys, user("find x"),
	calls([call("c1", "search")]),
	result("c1", "{\"hits\": 3}"),
	assistant("Found 3."),
])

test_clean_record_has_no_findings if {
	count(all_findings(clean)) == 0
}

test_record_without_tools_has_no_block_findings if {
	d := chat([sys, user("hi"), assistant("hello")])
	count(all_findings(d)) == 0
	integrity.block_calls == {} with input as d
	integrity.tool_results == [] with input as d
}

test_every_format_is_checked if {
	every f in ["contract", "proxy-log", "pi-session"] {
		d := json.patch(chat([user("x"), calls([call("c1", "search")]), user("y")]), [{"op": "replace", "path": "/format", "value": f}])
		hits(d, "tool-result-missing") == {["error", 1]}
	}
}

# ---------------------------------------------------------------------------------------------
# tool-result-flagged

test_flagged_error_key if {
	d := chat([user("x"), calls([call("c1", "search")]), result("c1", "{\"error\": \"boom\"}"), assistant("sorry")])
	hits(d, "tool-result-flagged") == {["error", 2]}
	some f in denied(d)
	f.rule == "tool-result-flagged"
	contains(f.msg, "\"c1\"")
	contains(f.msg, "\"search\"")
	contains(f.msg, "/error")
}

test_flagged_empty_and_null_content if {
	d := chat([
		user("x"),
		calls([call("c1", "search"), call("c2", "fetch"), call("c3", "open")]),
		result("c1", ""),
		result("c2", null),
		{"role": "tool", "tool_call_id": "c3"},
		assistant("?"),
	])
	hits(d, "tool-result-flagged") == {["error", 2], ["error", 3], ["error", 4]}
}

test_flagged_nested_key_inside_list if {
	content := "{\"results\": [{\"ok\": true}, {\"status\": {\"Timeout\": 30}}]}"
	d := chat([user("x"), calls([call("c1", "search")]), result("c1", content), assistant("?")])
	hits(d, "tool-result-flagged") == {["error", 2]}
	some f in denied(d)
	contains(f.msg, "/results/1/status/Timeout")
}

test_flagged_object_and_array_content if {
	d := chat([
		user("x"),
		calls([call("c1", "search"), call("c2", "fetch")]),
		result("c1", {"incomplete": true}),
		result("c2", [{"type": "text", "text": "{\"missing\": [\"field\"]}"}]),
		assistant("?"),
	])
	hits(d, "tool-result-flagged") == {["error", 2], ["error", 3]}
}

test_falsy_flag_values_are_not_flagged if {
	content := "{\"error\": null, \"timeout\": 0, \"missing\": [], \"incomplete\": false, \"x\": {\"error\": \"\"}, \"y\": {}}"
	d := chat([user("x"), calls([call("c1", "search")]), result("c1", content), assistant("ok")])
	hits(d, "tool-result-flagged") == set()
}

test_plain_text_and_invalid_json_are_not_flagged if {
	d := chat([
		user("x"),
		calls([call("c1", "search"), call("c2", "search")]),
		result("c1", "error: no such file"),
		result("c2", "{\"error\": true"),
		assistant("ok"),
	])
	hits(d, "tool-result-flagged") == set()
}

test_flagged_downgraded_by_successful_retry if {
	d := chat([
		user("x"),
		calls([call("c1", "search"), call("c2", "search")]),
		result("c1", "{\"error\": \"rate limited\"}"),
		result("c2", "{\"hits\": 1}"),
		assistant("ok"),
	])
	hits(d, "tool-result-flagged") == {["warning", 2]}
	some f in warned(d)
	f.rule == "tool-result-flagged"
	f.severity == "warning"
	not any_rule(denied(d), "tool-result-flagged")
}

test_flagged_not_downgraded_by_other_tool if {
	d := chat([
		user("x"),
		calls([call("c1", "search"), call("c2", "fetch")]),
		result("c1", "{\"error\": \"rate limited\"}"),
		result("c2", "{\"hits\": 1}"),
		assistant("ok"),
	])
	hits(d, "tool-result-flagged") == {["error", 2]}
}

test_flagged_not_downgraded_by_retry_in_another_block if {
	d := chat([
		user("x"),
		calls([call("c1", "search")]),
		result("c1", "{\"error\": \"rate limited\"}"),
		calls([call("c2", "search")]),
		result("c2", "{\"hits\": 1}"),
		assistant("ok"),
	])
	hits(d, "tool-result-flagged") == {["error", 2]}
}

test_flagged_not_downgraded_when_other_result_missing if {
	d := chat([
		user("x"),
		calls([call("c1", "search"), call("c2", "search")]),
		result("c1", "{\"error\": \"rate limited\"}"),
		assistant("ok"),
	])
	hits(d, "tool-result-flagged") == {["error", 2]}

	# and the missing one is not downgraded either: the other result is flagged
	hits(d, "tool-result-missing") == {["error", 1]}
}

test_flagged_not_downgraded_when_retry_also_flagged if {
	d := chat([
		user("x"),
		calls([call("c1", "search"), call("c2", "search")]),
		result("c1", "{\"error\": 1}"),
		result("c2", "{\"timeout\": true}"),
		assistant("ok"),
	])
	hits(d, "tool-result-flagged") == {["error", 2], ["error", 3]}
}

test_flagged_orphan_is_an_error if {
	d := chat([user("x"), result("c1", "")])
	hits(d, "tool-result-flagged") == {["error", 1]}
}

# Explicit error flags win: a result whose format marks errors (is_error) is flagged exactly
# when the flag is true, whatever the payload holds.
with_is_error(d, i, v) := json.patch(d, [{"op": "add", "path": sprintf("/messages/%d/is_error", [i]), "value": v}])

test_is_error_false_is_not_flagged_whatever_the_payload if {
	d := chat([user("x"), calls([call("c1", "read")]), result("c1", "{\"colors\": {\"error\": \"#f00\"}}"), assistant("ok")])
	hits(d, "tool-result-flagged") == {["error", 2]}
	hits(with_is_error(d, 2, false), "tool-result-flagged") == set()
	empty := chat([user("x"), calls([call("c1", "bash")]), result("c1", ""), assistant("ok")])
	hits(with_is_error(empty, 2, false), "tool-result-flagged") == set()
}

test_is_error_true_is_flagged if {
	d := with_is_error(chat([user("x"), calls([call("c1", "bash")]), result("c1", "exit status 1"), assistant("sorry")]), 2, true)
	hits(d, "tool-result-flagged") == {["error", 2]}
	some f in denied(d)
	f.msg == "tool result at message 2 for call \"c1\" (tool \"bash\") is flagged: its is_error flag is true"
	integrity.blocks_clean == false with input as d
}

test_is_error_true_downgraded_by_a_successful_retry if {
	d := chat([
		user("x"),
		calls([call("c1", "bash"), call("c2", "bash")]),
		result("c1", "exit status 1"),
		result("c2", "{\"error\": \"looks bad, is not\"}"),
		assistant("ok"),
	])
	flags := with_is_error(with_is_error(d, 2, true), 3, false)
	hits(flags, "tool-result-flagged") == {["warning", 2]}
}

# ---------------------------------------------------------------------------------------------
# tool-result-missing

test_missing_result if {
	d := chat([user("x"), calls([call("c1", "search")]), assistant("guess")])
	hits(d, "tool-result-missing") == {["error", 1]}
	some f in denied(d)
	f.rule == "tool-result-missing"
	f.tool_call_index == 0
	contains(f.msg, "\"c1\"")
	contains(f.msg, "\"search\"")
}

# A chat record that ends on a tool call is a function-calling fine-tuning example: the call is
# its training target. The export profile, and other formats, still want the result.
test_unanswered_training_target if {
	d := chat([user("x"), calls([call("c1", "search")])])
	hits(d, "tool-result-missing") == set()
	hits(export_profile(d), "tool-result-missing") == {["error", 1]}
	hits(json.patch(d, [{"op": "replace", "path": "/format", "value": "pi-session"}]), "tool-result-missing") == {["error", 1]}
}

# A call followed by a user turn was never answered, even when the record ends there: only a
# record that ends on the call itself is a training example.
test_call_followed_by_a_user_turn_is_missing if {
	d := chat([user("x"), calls([call("c1", "search")]), user("hello?")])
	hits(d, "tool-result-missing") == {["error", 1]}
	hits(export_profile(d), "tool-result-missing") == {["error", 1]}
}

# Only the last assistant message is the target, and only when no result answers it.
test_training_target_is_the_last_unanswered_call if {
	d := chat([user("x"), calls([call("c1", "search")]), assistant("hm"), calls([call("c2", "search")])])
	hits(d, "tool-result-missing") == {["error", 1]}
	partly := chat([user("x"), calls([call("c1", "search"), call("c2", "lookup")]), result("c1", "ok")])
	hits(partly, "tool-result-missing") == {["error", 1]}
}

export_profile(d) := object.union(d, {"profile": "export"})

test_missing_result_answered_in_a_later_block_is_still_missing if {
	d := chat([user("x"), calls([call("c1", "search")]), assistant("wait"), result("c1", "ok")])
	hits(d, "tool-result-missing") == {["error", 1]}
}

test_missing_downgraded_by_successful_retry if {
	d := chat([
		user("x"),
		calls([call("c1", "search"), call("c2", "search")]),
		result("c2", "{\"hits\": 1}"),
		assistant("ok"),
	])
	some f in warned(d)
	f.rule == "tool-result-missing"
	f.severity == "warning"
	f.tool_call_index == 0
	hits(d, "tool-result-missing") == {["warning", 1]}
}

test_missing_never_counts_as_success if {
	d := chat([user("x"), calls([call("c1", "search"), call("c2", "search")]), assistant("ok")])
	count([f | some f in denied(d); f.rule == "tool-result-missing"]) == 2
	not any_rule(warned(d), "tool-result-missing")
}

test_calls_without_id_or_name_open_no_block if {
	d := chat([
		user("x"),
		calls([{"type": "function", "function": {"name": "search", "arguments": "{}"}}, {"id": "c2", "type": "function", "function": {"arguments": "{}"}}]),
		assistant("ok"),
	])
	hits(d, "tool-result-missing") == set()
}

# tool-result-orphan, tool-result-duplicate, tool-call-id-duplicate and tool-call-id-reused are
# YAML rules (rules/integrity/blocks.yaml); cmd/chatlint/blocks_yaml_test.go tests their cases.

# ---------------------------------------------------------------------------------------------
# Inline mode: the normalizer has parsed calls and result ids already.

inline_doc := with_lookup({
	"format": "chat",
	"mode": "inline",
	"messages": [
		{"index": 0, "role": "user", "text": "x", "has_content": true, "tool_calls": [], "turn": -1, "raw": {"role": "user", "content": "x"}},
		{
			"index": 1, "role": "assistant", "has_content": true, "turn": 1,
			"text": "<tool_call>{\"name\": \"search\", \"arguments\": {}}</tool_call>\n<tool_call>{\"name\": \"search\", \"arguments\": {}}</tool_call>",
			"tool_calls": [
				{"index": 0, "id": "a", "name": "search", "arguments": {}, "has_input": true},
				{"index": 1, "id": "b", "name": "search", "arguments": {}, "has_input": true},
			],
			"raw": {"role": "assistant", "content": "..."},
		},
		{
			"index": 2, "role": "tool", "has_content": true, "tool_calls": [], "turn": 1, "tool_call_id": "a",
			"text": "<tool_result tool_call_id=\"a\">{\"Error\": \"boom\"}</tool_result>",
			"raw": {"role": "tool", "content": "<tool_result tool_call_id=\"a\">{\"Error\": \"boom\"}</tool_result>"},
		},
		{
			"index": 3, "role": "tool", "has_content": true, "tool_calls": [], "turn": 1, "tool_call_id": "b",
			"text": "<tool_result tool_call_id=\"b\"> </tool_result>",
			"raw": {"role": "tool", "content": "<tool_result tool_call_id=\"b\"> </tool_result>"},
		},
		{
			"index": 4, "role": "tool", "has_content": true, "tool_calls": [], "turn": 1,
			"text": "<tool_result>{\"hits\": 1}</tool_result>",
			"raw": {"role": "tool", "content": "<tool_result>{\"hits\": 1}</tool_result>"},
		},
	],
	"tools": [],
	"entries": [],
})

test_inline_results_are_inspected_inside_the_wrapper if {
	hits(inline_doc, "tool-result-flagged") == {["error", 2], ["error", 3]}
	hits(inline_doc, "tool-result-missing") == set()
}

test_inline_retry_downgrades if {
	d := with_lookup(json.patch(inline_doc, [{"op": "replace", "path": "/messages/3/text", "value": "<tool_result tool_call_id=\"b\">{\"hits\": 2}</tool_result>"}]))
	hits(d, "tool-result-flagged") == {["warning", 2]}
}

any_rule(fs, rule) if {
	some f in fs
	f.rule == rule
}

# ---------------------------------------------------------------------------------------------
# The fast path: blocks_clean lets the block rules skip records that pair up cleanly. It must
# never be true on a record with a block finding.

test_blocks_clean_on_records_that_pair_up if {
	integrity.blocks_clean with input as clean
	integrity.blocks_clean with input as chat([sys, user("hi"), assistant("hello")])
	integrity.blocks_clean with input as chat([])
	integrity.blocks_clean with input as chat([
		user("x"),
		calls([call("c1", "search"), call("c2", "fetch")]),
		result("c2", {"hits": 1}),
		result("c1", [{"type": "text", "text": "{\"ok\": true}"}]),
		assistant("more"),
		calls([call("c3", "search")]),
		result("c3", "{\"error\": null, \"x\": {\"timeout\": 0}}"),
		assistant("ok"),
	])
}

# Records with block findings, one or more of each rule and the cases next to them (the records
# whose only findings are those of the YAML pairing rules stay: the gate is false on them too).
block_finding_records := [
	chat([user("x"), calls([call("c1", "search")]), result("c1", "{\"error\": \"boom\"}"), assistant("sorry")]),
	chat([user("x"), calls([call("c1", "search")]), result("c1", "{\"a\": [{\"Timeout\": 30}]}"), assistant("?")]),
	chat([user("x"), calls([call("c1", "search")]), result("c1", ""), assistant("?")]),
	chat([user("x"), calls([call("c1", "search")]), result("c1", null), assistant("?")]),
	chat([user("x"), calls([call("c1", "search")]), {"role": "tool", "tool_call_id": "c1"}, assistant("?")]),
	chat([user("x"), calls([call("c1", "search")]), result("c1", []), assistant("?")]),
	chat([user("x"), calls([call("c1", "search")]), result("c1", {"incomplete": true}), assistant("?")]),
	chat([user("x"), calls([call("c1", "search")]), result("c1", [{"error": 1}]), assistant("?")]),
	chat([user("x"), calls([call("c1", "search")]), result("c1", [{"type": "text", "text": "{\"missing\": [1]}"}]), assistant("?")]),
	chat([user("x"), calls([call("c1", "search")]), result("c1", "<tool_result tool_call_id=\"c1\"> </tool_result>"), assistant("?")]),
	chat([user("x"), calls([call("c1", "search")]), result("c1", "<tool_result tool_call_id=\"c1\">{\"error\": 1}</tool_result>"), assistant("?")]),
	chat([user("x"), calls([call("c1", "search"), call("c2", "search")]), result("c1", "{\"error\": 1}"), result("c2", "ok"), assistant("?")]),
	chat([user("x"), calls([call("c1", "search")]), assistant("guess")]),
	export_profile(chat([user("x"), calls([call("c1", "search")])])),
	chat([user("x"), calls([call("c1", "search"), call("c2", "search")]), result("c2", "ok"), assistant("ok")]),
	chat([user("x"), calls([call("c1", "search")]), assistant("wait"), result("c1", "ok")]),
	chat([user("x"), result("c1", "ok")]),
	chat([user("x"), result("c1", "ok"), calls([call("c1", "search")]), result("c1", "ok"), assistant("ok")]),
	chat([user("x"), calls([call("c1", "search")]), {"role": "tool", "content": "ok"}, result("c1", "ok"), assistant("ok")]),
	chat([user("x"), calls([call("c1", "search")]), result("", "ok"), result("c1", "ok"), assistant("ok")]),
	chat([user("x"), calls([call("c1", "search")]), result("c1", "ok"), result("c7", "ok"), assistant("ok")]),
	chat([user("x"), calls([call("c1", "search")]), result("c1", "ok"), result("c1", "ok"), assistant("ok")]),
	chat([user("x"), calls([call("c1", "search")]), result("c1", "a"), calls([call("c1", "search")]), result("c1", "b"), assistant("ok")]),
	chat([user("x"), calls([call("c1", "search"), call("c1", "search")]), result("c1", "a"), result("c1", "b"), assistant("ok")]),
	chat([user("x"), calls([call("c1", "search"), call("c1", "search")]), result("c1", "a"), assistant("ok")]),
	chat([user("x"), calls([{"id": "c1", "type": "function", "function": {"arguments": "{}"}}]), result("c1", "ok"), assistant("ok")]),
	chat([user("x"), calls([{"id": "", "type": "function", "function": {"name": "search", "arguments": "{}"}}]), result("", "ok"), assistant("ok")]),
	chat([{"role": "user", "content": "x", "tool_calls": [call("c1", "search")]}, result("c1", "ok"), assistant("ok")]),
	chat([user("x"), calls([call("c1", "search")]), {"role": "tool", "tool_call_id": 7, "content": "ok"}, assistant("ok")]),
	inline_doc,
]

test_blocks_clean_false_on_records_with_block_findings if {
	every d in block_finding_records {
		integrity.blocks_clean == false with input as d
	}
}

test_every_format_has_the_block_findings if {
	every d in block_finding_records {
		integrity.blocks_clean == false with input as json.patch(d, [{"op": "replace", "path": "/format", "value": "contract"}])
	}
}
