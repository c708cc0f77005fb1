package chatlint.transcript_test

import data.chatlint.transcript

# doc builds a normalized document from messages, numbering them and giving each its turn.
doc(format, ms) := {"format": format, "mode": "structured", "messages": [object.union(m, {"index": i, "turn": turn(ms, i)}) | some i, m in ms]}

turn(ms, i) := max(s) if {
	s := {j | some j, m in ms; j <= i; m.role == "assistant"}
	count(s) > 0
} else := -1

session(ms) := doc("pi-session", ms)

user := {"role": "user", "tool_calls": [], "has_content": true, "raw": {"role": "user", "content": "hi"}}

# asst(calls) is an assistant message whose content holds only the given call blocks.
asst(calls) := {"role": "assistant", "tool_calls": calls, "has_content": true, "raw": {"role": "assistant", "content": [{} | some _ in calls], "timestamp": 7}}

call(k, id, has) := {"index": k, "id": id, "name": "read", "has_input": has, "path": sprintf("/message/content/%d", [k])}

res(id) := {"role": "tool", "tool_call_id": id, "tool_calls": [], "has_content": true, "raw": {}}

# acts(d) are the actions as [rule, op, message, tool call] (-1 when not named).
acts(d) := {[a.rule, a.op, object.get(a, "message_index", -1), object.get(a, "tool_call_index", -1)] |
	some a in transcript.actions with input as d
}

test_clean_session_has_no_actions if {
	acts(session([user, asst([call(0, "a", true), call(1, "b", true)]), res("a"), res("b"), user])) == set()
}

test_call_without_input_is_dropped_empty_input_kept if {
	# has_input is false only for missing or null input; {} is input (the normalizer's rule).
	d := session([user, asst([call(0, "a", true), call(1, "b", false)]), res("a")])
	acts(d) == {["tool-call-missing-input", "drop_tool_call", 1, 1]}
}

test_message_left_empty_is_dropped if {
	d := session([user, asst([call(0, "a", false)]), res("a")])
	acts(d) == {
		["tool-call-missing-input", "drop_message", 1, -1],
		["tool-result-pairing", "drop_message", 2, -1], # its result is an orphan now
	}
}

test_message_with_text_keeps_its_text if {
	m := object.union(asst([call(1, "a", false)]), {"raw": {"role": "assistant", "content": [{"type": "text", "text": "x"}, {}]}})
	acts(session([user, m])) == {["tool-call-missing-input", "drop_tool_call", 1, 1]}
}

test_results_out_of_order_are_moved_in_call_order if {
	d := session([user, asst([call(0, "a", true), call(1, "b", true)]), res("b"), user, res("a")])
	moves := {[a.message_index, a.after, a.rank] | some a in transcript.actions with input as d; a.op == "move_message"}
	moves == {[4, 1, 0], [2, 4, 1]}
}

test_missing_result_gets_a_synthetic_one if {
	d := session([user, asst([call(0, "a", true), call(1, "b", true)]), res("b")])
	some a in transcript.actions with input as d
	a.op == "insert_message"
	a.message_index == 1
	a.rank == 0
	a.message == {
		"role": "toolResult", "toolCallId": "a", "toolName": "read", "isError": true, "timestamp": 7,
		"content": [{"type": "text", "text": "[chatlint] missing tool result in session history; inserted synthetic error result for transcript repair."}],
	}
}

test_synthetic_result_in_chat_shape if {
	d := doc("chat", [user, asst([call(0, "a", true)])])
	some a in transcript.actions with input as d
	a.message == {"role": "tool", "tool_call_id": "a", "content": transcript.synthetic_text}
}

test_synthetic_result_in_claude_code_shape if {
	d := doc("claude-code", [user, asst([call(0, "a", true)])])
	some a in transcript.actions with input as d
	a.message == {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": transcript.synthetic_text, "is_error": true}]}
}

test_synthetic_result_in_codex_shape if {
	d := doc("codex", [user, asst([call(0, "a", true)])])
	some a in transcript.actions with input as d
	a.message == {"type": "function_call_output", "call_id": "a", "output": transcript.synthetic_text}
}

# The calls of an aborted or failed turn never ran, and agent runtimes drop such a turn when they
# rebuild the request: a call without a result is left unanswered, as the reference transcript
# repair leaves it (a synthetic result would be an orphan the provider rejects); a real result
# stays where it is.
test_aborted_assistant_calls_get_no_synthetic_result if {
	m := object.union(asst([call(0, "a", true), call(1, "b", true)]), {"stop_reason": "aborted"})
	d := session([user, m, res("b"), user])
	acts(d) == set()
}

test_error_assistant_call_without_result_is_left_alone if {
	m := object.union(asst([call(0, "a", true)]), {"stop_reason": "error"})
	acts(doc("chat", [user, m, user])) == set()
}

test_error_assistant_results_still_reordered if {
	m := object.union(asst([call(0, "a", true), call(1, "b", true)]), {"stop_reason": "error"})
	d := session([user, m, res("b"), res("a")])
	acts(d) == {["tool-result-pairing", "move_message", 3, -1], ["tool-result-pairing", "move_message", 2, -1]}
}

test_duplicates_and_orphans_are_dropped if {
	d := session([res("x"), user, asst([call(0, "a", true)]), res("a"), res("a"), res("zz"), asst([call(0, "b", true)]), res("a"), res("b")])
	acts(d) == {
		["tool-result-pairing", "drop_message", 0, -1], # before any assistant
		["tool-result-pairing", "drop_message", 4, -1], # duplicate in its turn
		["tool-result-pairing", "drop_message", 5, -1], # unknown id
		["tool-result-pairing", "drop_message", 7, -1], # answers a call of an earlier turn
	}
}

test_reused_id_is_answered_by_its_own_turn if {
	d := session([user, asst([call(0, "a", true)]), res("a"), asst([call(0, "a", true)]), res("a")])
	acts(d) == set()
}

# The fast path never hides work: it holds on clean records only.
test_record_clean_fast_path if {
	transcript.record_clean with input as session([user, asst([call(0, "a", true), call(1, "b", true)]), res("a"), res("b"), user])
	every ms in [
		[user, asst([call(0, "a", true), call(1, "b", true)]), res("b"), res("a")], # out of order
		[user, asst([call(0, "a", true), call(1, "b", true)]), res("a")], # missing
		[user, asst([call(0, "a", false)]), res("a")], # no input
		[user, asst([call(0, "a", true)]), res("a"), res("a")], # duplicate
		[res("x"), user], # orphan
		[user, asst([call(0, "a", true), call(1, "a", true)]), res("a"), res("a")], # id twice in a message
	] {
		not transcript.record_clean with input as session(ms)
	}
}

# A record with pieces the pack cannot read is left as it is: one keep_record action, no other.
test_unreadable_record_is_kept if {
	lf := {"role": "assistant", "tool_calls": [call(0, "", false)], "has_content": true, "raw": {"role": "assistant", "content": [{"type": "tool_call", "value": "{}"}]}}
	d := session([user, lf, res("")])
	[a | some a in transcript.actions with input as d] == [{
		"op": "keep_record", "rule": "transcript-unreadable",
		"reason": "content parts keyed value instead of text (LLaMA-Factory) in message 1",
	}]
}

# tool_calls given as an object: its keys are not call numbers ("tool call %!d(string=id)").
test_object_tool_calls_are_worded if {
	odd := {"role": "assistant", "tool_calls": [], "has_content": true, "raw": {"role": "assistant", "content": "x", "tool_calls": {"id": "c1"}}}
	transcript.unreadable == {"message 1: its tool_calls is object, not a list"} with input as doc("chat", [user, odd])
}

# Parallel calls sharing an id: the second call and the second result are renamed together, in a
# pass of their own (the pairing rules would take the second result for a duplicate).
test_calls_sharing_an_id_are_renamed_with_their_results if {
	d := session([user, asst([call(0, "a", true), call(1, "a", true)]), res("a"), res("a"), user])
	[[a.rule, a.op, a.message_index, a.tool_call_index, a.id, a.results] | some a in transcript.actions with input as d] == [
		["tool-call-id-shared", "rename_tool_call_id", 1, 1, "a_2", [3]],
	]
}

# A missing result is inserted after the answer of the nearest earlier call that has one (the
# anchors map), or right after the assistant message when none before it has: here the calls at
# positions 1 and 3 lack results, position 0 and 2 are answered by messages 2 and 3.
test_synthetic_results_anchor_on_the_nearest_earlier_answer if {
	d := session([user, asst([call(0, "a", true), call(1, "b", true), call(2, "c", true), call(3, "d", true), call(4, "e", true)]), res("a"), res("c")])
	{[a.message_index, a.rank, a.reason] | some a in transcript.actions with input as d; a.op == "insert_message"} == {
		[2, 1, "tool call \"b\" (tool \"read\") of assistant message 1 has no result: inserted a synthetic error result"],
		[3, 3, "tool call \"d\" (tool \"read\") of assistant message 1 has no result: inserted a synthetic error result"],
		[3, 4, "tool call \"e\" (tool \"read\") of assistant message 1 has no result: inserted a synthetic error result"],
	}
}

test_synthetic_result_before_any_answer_goes_after_the_call if {
	d := session([user, asst([call(0, "a", true), call(1, "b", true)]), res("b")])
	{[a.message_index, a.rank] | some a in transcript.actions with input as d; a.op == "insert_message"} == {[1, 0]}
}

# Many calls sharing an id: each rename's reason names the first two and the count, not every
# call (the list in each of thousands of notes made the notes quadratic in the calls).
test_many_calls_sharing_an_id_are_counted_in_the_reason if {
	d := session([user, asst([call(k, "a", true) | some k in numbers.range(0, 11)])])
	reasons := {a.reason | some a in transcript.actions with input as d; a.rule == "tool-call-id-shared"}
	reasons == {"tool calls 0, 1, ... (12 in all) of message 1 share the id \"a\""}
	count({a | some a in transcript.actions with input as d; a.rule == "tool-call-id-shared"}) == 11
}
