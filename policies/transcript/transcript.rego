package chatlint.transcript

# Cleanup rules for agent session transcripts, over the normalized document, so they apply to
# every format. Tool calls are the normalized tool_calls of a message (content blocks of type
# toolCall, toolUse, functionCall, tool_use, tool_call or function_call, and OpenAI tool_calls);
# tool results are messages with role "tool" (toolResult in transcripts) and their tool_call_id
# (toolCallId or toolUseId).

synthetic_text := "[chatlint] missing tool result in session history; inserted synthetic error result for transcript repair."

# Inline tool calls live in a message's text: there is nothing to drop or pair as data.
structured if input.mode == "structured"

# ---------------------------------------------------------------------------------------------
# Clean records.
#
# OPA pays per evaluation step and per virtual document, and most conversations need nothing:
# the rules put their actions in cleanup_actions, and actions looks at it only when record_clean
# cannot prove the record clean. Their METADATA declares the rule ids as it would on actions
# (custom.severity is required off the actions set; it is not used).

actions contains a if {
	not record_clean
	count(unreadable) == 0
	count(shared_renames) == 0
	some a in cleanup_actions
}

# Calls of one message sharing an id are renamed first, in a pass of their own: until then the
# pairing rules would take their results for duplicates.
actions contains a if {
	not record_clean
	count(unreadable) == 0
	some a in shared_renames
}

record_clean if not structured

# Every call has input and an id of its own in its message, every call of an assistant message
# is answered by the message at its position after it (results in call order, right after the
# call), and every tool result is such an answer.
record_clean if {
	structured
	not call_unclean
	not answer_missing
	not result_out_of_place
}

call_unclean if {
	some m in input.messages
	some c in m.tool_calls
	not c.has_input
}

call_unclean if {
	some m in input.messages
	some c in m.tool_calls
	c.id == ""
}

call_unclean if {
	some m in input.messages
	count(m.tool_calls) > 1
	count({c.id | some c in m.tool_calls}) < count(m.tool_calls)
}

answer_missing if {
	some t, m in input.messages
	some k, _ in m.tool_calls
	not result_at((t + k) + 1)
}

result_at(i) if input.messages[i].role == "tool"

result_out_of_place if {
	some r in input.messages
	r.role == "tool"
	not in_place(r)
}

in_place(r) if {
	r.turn >= 0
	input.messages[r.turn].tool_calls[(r.index - r.turn) - 1].id == r.tool_call_id
}

# ---------------------------------------------------------------------------------------------
# tool-call-missing-input

# The calls of a message whose arguments/input is missing or null ({}, "", 0, false and [] are
# input).
no_input(m) := [c | some c in m.tool_calls; not c.has_input]

# What is left of a message's content once its calls without input are gone: for a list, the
# other parts; for a string, whether it is not empty.
content_left(m, bad) := count(m.raw.content) - count([c | some c in bad; contains(c.path, "/content/")]) if {
	is_array(m.raw.content)
} else := 1 if {
	m.has_content
} else := 0

# left_empty(m, bad) holds when dropping the calls would leave the message with nothing.
left_empty(m, bad) if {
	count(m.tool_calls) == count(bad)
	content_left(m, bad) == 0
}

# Messages dropped whole by tool-call-missing-input. The sets other rules look up are complete
# rules (comprehensions): computed once per document, where a lookup into a partial set would
# evaluate its body again for each key.
emptied := {m.index |
	structured
	some m in input.messages
	bad := no_input(m)
	bad != []
	left_empty(m, bad)
}

# METADATA
# title: tool-call-missing-input
# description: >-
#   Drops a tool call whose arguments (or input) is missing or null; an empty object, string,
#   list, 0 or false is input and is kept. A message left with no content at all is dropped whole.
# custom:
#   severity: info
#   id: tool-call-missing-input
#   modes: [structured]
#   repairs: [tool-call-missing-input]
#   example: |-
#     {"type": "message", "message": {"role": "assistant", "content": [{"type": "toolCall", "id": "call_1", "name": "read", "input": null}]}}
cleanup_actions contains a if {
	structured
	some m in input.messages
	not emptied[m.index]
	some c in no_input(m)
	a := {
		"op": "drop_tool_call", "rule": "tool-call-missing-input",
		"message_index": m.index, "tool_call_index": c.index,
		"reason": sprintf("tool call %q (tool %q) of message %d has no arguments or input", [c.id, c.name, m.index]),
	}
}

cleanup_actions contains a if {
	some i in emptied
	a := {
		"op": "drop_message", "rule": "tool-call-missing-input", "message_index": i,
		"reason": sprintf("message %d holds only tool calls without arguments or input", [i]),
	}
}

# ---------------------------------------------------------------------------------------------
# tool-result-pairing

# The usable calls of each assistant message: an id, and input. Only the first call of an id
# counts; turns maps the message index to its ids in call order, names to the tool names.
usable(m) := [c | some c in m.tool_calls; c.id != ""; c.has_input]

turns := {m.index: ids |
	structured
	some m in input.messages
	m.role == "assistant"
	not emptied[m.index]
	cs := usable(m)
	firsts := first_calls(cs)
	ids := [c.id | some i, c in cs; firsts[i]]
	ids != []
}

# The positions in cs of the first call of each id. The calls are sorted by [id, position]
# once, so the first of an id is the one whose predecessor has another id (comparing each
# call with those before it would be quadratic in a message whose calls share one id).
first_calls(cs) := {p[1] |
	sorted := sort([[c.id, i] | some i, c in cs])
	some k, p in sorted
	not same_id_before(sorted, k)
}

same_id_before(sorted, k) if {
	k > 0
	sorted[k - 1][0] == sorted[k][0]
}

tool_name(t, x) := name if {
	k := [t, x]
	name := call_names[k]
	name != ""
} else := "unknown"

# The tool name of the first usable call of each id, keyed by [turn, id], found once per turn (a
# scan of the turn's calls for each id would be quadratic in a turn of many calls).
call_names := {[t, c.id]: c.name |
	some t, _ in turns
	cs := usable(input.messages[t])
	firsts := first_calls(cs)
	some i, c in cs
	firsts[i]
}

results := [m | structured; some m in input.messages; m.role == "tool"]

rid(r) := r.tool_call_id if {
	is_string(r.tool_call_id)
	r.tool_call_id != ""
}

# The ids of each turn, as a set.
turn_ids := {t: {x | some x in ids} | some t, ids in turns}

# The answer of each call: the first result of its turn with its id, keyed by [turn, id]. The
# results are sorted by [turn, id, index] once, so the first of each key is the one before it
# that differs (a scan per call would be quadratic on long sessions).
keyed := sort([[r.turn, x, r.index] | some r in results; x := rid(r); turn_ids[r.turn][x]])

answers := {[k[0], k[1]]: k[2] |
	some i, k in keyed
	first_key(i, k)
}

first_key(n, _) if n == 0

first_key(i, k) if {
	i > 0
	p := keyed[i - 1]
	[p[0], p[1]] != [k[0], k[1]]
}

# answer(t, x) is answers[[t, x]], with the key made apart: a lookup keyed
# by an array literal is outside the compiled Rego subset.
answer(t, x) := a if {
	k := [t, x]
	a := answers[k]
}

answering := {i | some _, i in answers}

# Results dropped: duplicates (a second result for a call answered in its turn) and orphans (a
# result matching no call of its turn, before any assistant message, or without an id).
duplicate := {r.index |
	some r in results
	x := rid(r)
	turn_ids[r.turn][x]
	answer(r.turn, x) != r.index
}

orphan := {r.index |
	some r in results
	not answering[r.index]
	not duplicate[r.index]
}

orphan_reason(r) := sprintf("tool result at message %d has no tool call id", [r.index]) if {
	not rid(r)
} else := sprintf("tool result at message %d (id %q) comes before any assistant message", [r.index, rid(r)]) if {
	r.turn < 0
} else := sprintf("tool result at message %d (id %q) matches no tool call of assistant message %d", [r.index, rid(r), r.turn])

# METADATA
# title: tool-result-pairing
# description: >-
#   After each assistant message with tool calls come its results, in call order, then the other
#   messages of its span. A call with an id and no result gets a synthetic error result, except
#   the calls of an aborted or failed assistant message (stopReason aborted or error): agent
#   runtimes drop such a turn when they rebuild the request, so a synthetic result would be an
#   orphan the provider rejects (the transcript repair this follows leaves them unanswered). A
#   second result for a call of the turn and a result matching no call of its turn are dropped.
# custom:
#   severity: info
#   id: tool-result-pairing
#   modes: [structured]
#   repairs: [tool-result-missing, tool-result-orphan, tool-result-duplicate, tool-result-separated, tool-results-out-of-order]
#   example: |-
#     {"type": "message", "message": {"role": "assistant", "content": [{"type": "toolCall", "id": "a", "name": "read", "arguments": {}}, {"type": "toolCall", "id": "b", "name": "read", "arguments": {}}]}}
cleanup_actions contains a if {
	some r in results
	orphan[r.index]
	a := {"op": "drop_message", "rule": "tool-result-pairing", "message_index": r.index, "reason": orphan_reason(r)}
}

cleanup_actions contains a if {
	some i in duplicate
	r := input.messages[i]
	a := {
		"op": "drop_message", "rule": "tool-result-pairing", "message_index": i,
		"reason": sprintf("tool result at message %d answers call %q again; message %d already answered it", [i, r.tool_call_id, answer(r.turn, r.tool_call_id)]),
	}
}

# An assistant message that was aborted or failed: its calls never ran. Its real results stay
# paired with it (dropping them would lose what the tools did), and a call without one is left
# unanswered.
not_executed(t) if input.messages[t].stop_reason in {"aborted", "error"}

missing(t) := [x | some x in turns[t]; not answer(t, x); not not_executed(t)]

# The span of a turn: the messages after the assistant message up to the next one, found from
# the positions of the assistant messages (a scan per turn would be quadratic on long sessions).
assistants := [m.index | some m in input.messages; m.role == "assistant"]

asst_pos := {a: i | some i, a in assistants}

span_end(t) := assistants[asst_pos[t] + 1] if {
	asst_pos[t] + 1 < count(assistants)
} else := count(input.messages)

span(t) := numbers.range(t + 1, span_end(t) - 1) if {
	span_end(t) > t + 1
} else := []

dropped(i) if orphan[i]

dropped(i) if duplicate[i]

# The turn's order is right when its kept messages are its answers in call order, then the rest.
in_order(t) if {
	kept := [i | some i in span(t); not dropped(i)]
	real := [answer(t, x) | some x in turns[t]; answer(t, x)]
	rest := [i | some i in kept; not answering[i]]
	kept == array.concat(real, rest)
}

needs_pairing(t) if not in_order(t)

needs_pairing(t) if missing(t) != []

# The message the k-th call's result goes after: the previous call's real answer, or the
# assistant message itself.
anchor(t, k) := a if {
	tk := [t, k]
	a := anchors[tk]
} else := t

# The answer each call of a turn goes after, keyed by [turn, position]: the answer of the nearest
# call before it that has one. Each answered call is the anchor of the positions up to the next
# answered one, so the map is built in one walk of the turn (a scan of the calls before each call
# would be quadratic in a turn of many calls).
anchors := {[t, k]: a[1] |
	some t, ids in turns
	answered := [[j, r] | some j, x in ids; r := answer(t, x)]
	some n, a in answered
	last := anchored_until(answered, n, count(ids))
	a[0] < last
	some k in numbers.range(a[0] + 1, last)
}

# The last position the n-th answered call of a turn of size calls anchors: the next answered
# call's (the calls before it include the n-th), or the turn's last.
anchored_until(answered, n, size) := answered[n + 1][0] if {
	n + 1 < count(answered)
} else := size - 1

cleanup_actions contains a if {
	some t, ids in turns
	needs_pairing(t)
	some k, x in ids
	r := answer(t, x)
	a := {
		"op": "move_message", "rule": "tool-result-pairing", "message_index": r, "after": anchor(t, k), "rank": k,
		"reason": sprintf("tool result for call %q goes right after assistant message %d, in call order", [x, t]),
	}
}

cleanup_actions contains a if {
	some t, ids in turns
	not not_executed(t)
	some k, x in ids
	not answer(t, x)
	a := {
		"op": "insert_message", "rule": "tool-result-pairing", "message_index": anchor(t, k), "position": "after", "rank": k,
		"message": synthetic(t, x),
		"reason": synthetic_reason(t, x),
	}
}

synthetic_reason(t, x) := sprintf("tool call %q (tool %q) of assistant message %d has no result: inserted a synthetic error result", [x, tool_name(t, x), t])

# The synthetic result, in the record's own message shape; its timestamp is the assistant
# message's, so a second run gives the same bytes.
synthetic(t, x) := object.union(base, stamp(t)) if {
	input.format == "pi-session"
	base := {
		"role": "toolResult", "toolCallId": x, "toolName": tool_name(t, x),
		"content": [{"type": "text", "text": synthetic_text}], "isError": true,
	}
} else := {"role": "user", "content": [{"type": "tool_result", "tool_use_id": x, "content": synthetic_text, "is_error": true}]} if {
	input.format == "claude-code"
} else := {"type": "function_call_output", "call_id": x, "output": synthetic_text} if {
	input.format == "codex"
} else := {"role": "tool", "tool_call_id": x, "content": synthetic_text}

stamp(t) := {"timestamp": ts} if {
	ts := input.messages[t].raw.timestamp
} else := {}

# ---------------------------------------------------------------------------------------------
# Records fix cannot read (the same rule in both cleanup packs: record-unreadable in openai-tools,
# transcript-unreadable here).
#
# A record whose pieces are in a layout these rules do not read is left exactly as it is, with a
# note: dropping or moving what is only half understood loses data (a LLaMA-Factory record keys
# its parts `value` and writes its calls as JSON strings, so every call would look like one
# without an id or input, and every result like an orphan). Only a record some rule would change
# is looked at (record_clean first), so a clean record costs nothing more.

# The content part types the normalizer reads: text, media the rules leave alone, reasoning
# blocks, tool calls and Anthropic tool results. Types ending in _text are text too.
known_part_types := {
	"text", "image", "image_url", "input_image", "input_audio", "audio", "file", "input_file", "document",
	"refusal", "thinking", "redacted_thinking", "tool_use", "tool_result", "toolCall", "toolUse",
	"functionCall", "tool_call", "function_call",
}

known_part(p) if is_string(p)

known_part(p) if {
	is_object(p)
	not p.type
}

known_part(p) if known_part_types[p.type]

known_part(p) if endswith(p.type, "_text")

unreadable contains sprintf("its tools is %s, not a list", [type_name(t)]) if {
	input.format in {"chat", "contract"}
	t := input.raw.tools
	not is_array(t)
	not is_null(t)
}

unreadable contains sprintf("message %d: its tool_calls is %s, not a list", [m.index, type_name(tcs)]) if {
	some m in input.messages
	tcs := m.raw.tool_calls
	not is_array(tcs)
	not is_null(tcs)
}

# Only a list has numbered calls: tool_calls of another type is the rule above's.
unreadable contains sprintf("message %d: tool call %d is %s, not an object", [m.index, k, type_name(c)]) if {
	some m in input.messages
	is_array(m.raw.tool_calls)
	some k, c in m.raw.tool_calls
	not is_object(c)
}

# The messages holding content parts keyed value instead of text (LLaMA-Factory).
value_keyed := {m.index |
	some m in input.messages
	some p in m.raw.content
	is_object(p)
	not p.text
	p.value
}

unreadable contains sprintf("content parts keyed value instead of text (LLaMA-Factory) in message %s", [numbers_list(value_keyed)]) if {
	count(value_keyed) > 0
}

unreadable contains sprintf("message %d: content part %d is of type %s, which fix does not know", [m.index, k, json.marshal(p.type)]) if {
	some m in input.messages
	is_array(m.raw.content)
	some k, p in m.raw.content
	is_object(p)
	p.type
	not known_part(p)
}

unreadable contains sprintf("message %d: content part %d is %s, not an object or a string", [m.index, k, type_name(p)]) if {
	some m in input.messages
	is_array(m.raw.content)
	some k, p in m.raw.content
	not is_object(p)
	not is_string(p)
}

# A content object is read member by member, as it always was; its members are named, not
# numbered.
unreadable contains sprintf("message %d: content member %q is %s, not an object or a string", [m.index, k, type_name(p)]) if {
	some m in input.messages
	is_object(m.raw.content)
	some k, p in m.raw.content
	not is_object(p)
	not is_string(p)
}

numbers_list(s) := concat(", ", [sprintf("%d", [i]) | some i in sort(s)])

# METADATA
# title: transcript-unreadable
# description: >-
#   Leaves a record fix cannot read exactly as it is, with a note saying why, instead of dropping
#   pieces of it: content parts of a type it does not know, parts keyed value instead of text
#   (LLaMA-Factory), tools or tool_calls that are not lists (a JSON string). Only a record some
#   other rule of the pack would change is looked at.
# custom:
#   severity: warning
#   id: transcript-unreadable
#   modes: [structured]
#   example: '{"messages": [{"role": "user", "content": "6*8?"}, {"role": "assistant", "content": [{"type": "tool_call", "value": "{\"name\": \"multiply\"}"}]}, {"role": "tool", "content": [{"type": "text", "value": "48"}]}], "tools": "[]"}'
actions contains a if {
	not record_clean
	count(unreadable) > 0
	a := {"op": "keep_record", "rule": "transcript-unreadable", "reason": concat("; ", sort(unreadable))}
}

# ---------------------------------------------------------------------------------------------
# tool-call-id-shared

# Parallel calls of one assistant message that share an id: the k-th call of the id is answered
# by the k-th result with that id in its turn, so the second call and the second result are
# renamed together (ID_2, ID_3, ...) and nothing is dropped as a duplicate.
taken_ids := {c.id | some m in input.messages; some c in m.tool_calls}

# The calls of message m with id x, in call order, and the results with x in its turn, in order.
same_id_calls(m, x) := [c.index | some c in usable(m); c.id == x]

same_id_results(t, x) := [r.index | some r in results; r.turn == t; rid(r) == x]

shared_id(m, x, k) := id if {
	id := sprintf("%s_%d", [x, k + 1])
	not taken_ids[id]
} else := sprintf("%s_%d_m%d", [x, k + 1, m.index])

# METADATA
# title: tool-call-id-shared
# description: >-
#   Renames the second (third, ...) of the tool calls of one assistant message that share an id to
#   ID_2, ID_3, ..., together with the result at the same position among its turn's results with
#   that id, so results travel with their calls instead of being dropped as duplicates.
# custom:
#   severity: info
#   id: tool-call-id-shared
#   modes: [structured]
#   example: |-
#     {"type": "message", "message": {"role": "assistant", "content": [{"type": "toolCall", "id": "a", "name": "read", "arguments": {}}, {"type": "toolCall", "id": "a", "name": "read", "arguments": {}}]}}
shared_renames contains a if {
	structured
	some m in input.messages
	m.role == "assistant"
	not emptied[m.index]
	count(m.tool_calls) > 1
	some x in repeated_ids(usable(m))
	calls := same_id_calls(m, x)
	rs := same_id_results(m.index, x)
	some k, ci in calls
	k > 0
	a := {
		"op": "rename_tool_call_id", "rule": "tool-call-id-shared", "message_index": m.index, "tool_call_index": ci,
		"id": shared_id(m, x, k), "results": [rs[k] | k < count(rs)],
		"reason": shared_reason(calls, m.index, x),
	}
}

# The ids more than one of the calls cs has, from the calls sorted by [id, position] once.
repeated_ids(cs) := {p[0] |
	sorted := sort([[c.id, i] | some i, c in cs])
	some k, p in sorted
	same_id_before(sorted, k)
}

# The reason names every call sharing the id while they are few; a message of thousands of calls
# sharing one would otherwise repeat all of them in each call's note.
shared_reason(calls, m, x) := sprintf("tool calls %v of message %d share the id %q", [calls, m, x]) if {
	count(calls) <= 10
} else := sprintf("tool calls %d, %d, ... (%d in all) of message %d share the id %q", [calls[0], calls[1], count(calls), m, x])
