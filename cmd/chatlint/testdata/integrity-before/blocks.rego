package chatlint.integrity

# Pairing of tool calls and tool results, per block.
#
# A block is an assistant message with at least one valid tool call (non-empty id and name)
# up to, not including, the next assistant message. The normalized `turn` of a message is the
# index of the latest assistant message at or before it, so a tool result r belongs to the
# block of messages[r.turn] when that message has valid tool calls. Tool results are the
# messages with role "tool", in both modes (inline results carry the tool_call_id parsed from
# `<tool_result tool_call_id="...">`, inline calls the ids the normalizer gave them).
#
# Cost: OPA pays per evaluation step, per rule body and per virtual document it touches, so
# the pack checks first whether a record needs the block rules at all. Most records do not:
# blocks_clean recognizes a record whose calls and results pair up cleanly by comparing the
# indexes the normalizer puts in the document (input.lookup: the message indexes by role, the
# sets of [message, call id], of call ids and of [turn, tool_call_id]; see docs/document.md)
# and reading the tool results' contents, and on a record without calls or results it stops
# after two comparisons. The indexes are data only: every decision is made here. The rules are
# gathered into deny and warn by one rule each, which looks no further than blocks_clean on
# those records. Everything else the rules need is built once per document by a comprehension
# and then looked up.

# ---------------------------------------------------------------------------------------------
# Clean records.

# blocks_clean is true on a record where every tool result answers a distinct valid call of its
# block, every valid call has a result, no call id is issued by two assistant messages and no
# result can be flagged, and false on the other records of the formats with record checks. It
# may be false on a record without block findings (a call in a message that is not an
# assistant message, a call with an empty id or name, inline results, a falsy flag key), never
# true on one with block findings.
#
# Pairing: a tool result answers a call of its block exactly when [turn, tool_call_id] of the
# result is [message index, id] of a call (turn is -1 or the index of an assistant message, so
# a call of another message matches no result). When the set of the results' pairs
# (lookup.results) equals the set of the calls' pairs (lookup.calls) and both, like the set of
# call ids, have as many members as there are tool results, each result has a tool_call_id and
# answers another call, every call has a result and no id is issued twice by two messages; as
# many calls as results leaves no id issued twice by one message either. The calls are valid
# when no id is "" and no name is "" (lookup.call_ids, lookup.call_names).
#
# Flags: no result is marked an error by its format (is_error true), none is empty (has_content)
# or inline, and no truthy flag key is in the raw
# contents (objects and lists) or the JSON payload of the texts (the text of a string content
# is the content, of a list of parts the parts' joined text).
blocks_clean if {
	input.lookup.tool == []
	input.lookup.calls == set()
} else if {
	idx := input.lookup
	n := count(idx.tool)
	idx.results == idx.calls
	count(idx.results) == n
	count(idx.call_ids) == n
	not idx.call_ids[""]
	not idx.call_names[""]
	sum([count(input.messages[i].tool_calls) | some i in idx.assistant]) == n
	results := [input.messages[i] | some i in idx.tool]
	[1 | some r in results; r.is_error == true] == []
	input.format != "codex" # a Codex output's exit status is read below (issue 37)
	[1 | some r in results; not r.has_content] == []
	texts := [r.text | some r in results]
	count(texts) == n
	strings.any_prefix_match(texts, "<tool_result") == false
	contents := [r.raw.content | some r in results]
	payloads := [p | some t in texts; p := chatlint.json_payload(t)]
	chatlint.truthy_keys([contents, payloads], {"error", "timeout", "missing", "incomplete"}) == []
} else := false

# The block findings, on the records that are not clean. The rules below add them to block_deny
# and block_warn; their METADATA declares the rule ids as it would on deny and warn.
deny contains f if {
	blocks_clean == false
	some f in block_deny
}

warn contains f if {
	blocks_clean == false
	some f in block_warn
}

# ---------------------------------------------------------------------------------------------
# Indexes of the block rules.

# The assistant messages and the tool results, in order.
assistant_msgs := [input.messages[i] | some i in input.lookup.assistant]

tool_results := [input.messages[i] | some i in input.lookup.tool]

# Valid tool calls (non-empty id and name; the normalizer gives "" for a missing or non-string
# id or name) of each assistant message that opens a block, keyed by message index.
block_calls := {m.index: calls |
	some m in assistant_msgs
	m.tool_calls != []
	calls := [c | some c in m.tool_calls; c.id != ""; c.name != ""]
	calls != []
}

# The call ids of each block.
block_ids := {t: {c.id | some c in calls} | some t, calls in block_calls}

# The answers: [block, call id, message index] of every tool result whose tool_call_id matches
# a call of its block, sorted so that the answers of one call are adjacent and in order.
answers := sort([[r.turn, x, r.index] |
	some r in tool_results
	x := r.tool_call_id
	block_ids[r.turn][x]
])

# The answered calls: [block, call id].
answered_calls := {[a[0], a[1]] | some a in answers}

# The message indexes of the tool results that answer a call of their block.
answering := {a[2] | some a in answers}

# Positions in answers of answers of a call id beyond the number of calls of the block with
# that id: the second and later answers of a call. When one message issues an id twice, the
# second answer answers the second call: tool-call-id-duplicate reports that defect, once, at
# the call, and the result is not a duplicate too.
repeated_answers := {i |
	some i, a in answers
	i > 0
	p := answers[i - 1]
	p[1] == a[1]
	p[0] == a[0]
	answer_rank(i, a) >= count([c | some c in block_calls[a[0]]; c.id == a[1]])
}

# answer_rank(i, a) is how many answers of the same call come before position i of answers.
answer_rank(i, a) := count([j | some j, b in answers; j < i; b[0] == a[0]; b[1] == a[1]])

# The calls without an answer in their block: [block, call]. The calls of the training target
# are not: they are what the example teaches.
unanswered := [[t, c] |
	some t, calls in block_calls
	t != training_target
	not turn_stopped(t) # tool-call-not-executed since issue 32
	some c in calls
	not answered_calls[[t, c.id]]
]

turn_stopped(t) if input.messages[t].stop_reason in {"aborted", "error"}

# The training target of a fine-tuning record, under the default profile: its last message,
# when that is an assistant message with tool calls. A function-calling fine-tuning example ends
# on the call the model must learn to make; the call's result is not part of the example. A call
# followed by anything — a user turn, say — was never answered, wherever the record ends. (Under
# the export profile, and in other formats, a conversation that ends on a call that never got a
# result is missing it.) The same holds for the other fine-tuning formats (ShareGPT, Gemini
# tuning records) and for a batch result, whose one message is the model's answer: a call there
# is what the model asked for, and no result can follow it. A batch request is sent as it is,
# and the API refuses a call without its result.
ends_on_target if input.format in {"chat", "sharegpt", "gemini", "xlam", "openai-batch-output", "openhands", "openai-agents-runstate"}

ends_on_target if {
	input.format == "anthropic-batch"
	input.raw.result
}

training_target := t if {
	ends_on_target
	not export
	t := count(input.messages) - 1
	input.messages[t].role == "assistant"
	block_calls[t]
} else := -2

# Calls with a result that is not flagged: [block, call id].
ok_answered := answered_calls if {
	count(flagged) == 0
} else := {[a[0], a[1]] | some a in answers; not flagged[a[2]]}

# downgraded(t, name, id) holds when block t has another call of the same tool whose result
# exists and is not flagged. A missing result never counts as a success.
downgraded(t, name, id) if {
	some c in block_calls[t]
	c.name == name
	c.id != id
	ok_answered[[t, c.id]]
}

downgrade_note(name) := sprintf(" (warning only: another %q call in the same block succeeded)", [name])

# block_call(t, x) is the (first) call with id x of block t.
block_call(t, x) := [c | some c in block_calls[t]; c.id == x][0]

# result_call(r) is the call a tool result answers: the call of its block with its id.
result_call(r) := block_call(r.turn, r.tool_call_id)

# result_id(r) is the tool_call_id of a tool result when it is a non-empty string.
result_id(r) := r.tool_call_id if non_empty_string(r.tool_call_id)

# describe_result(r) names a tool result, its call id and tool where known.
describe_result(r) := sprintf("tool result at message %d for call %q (tool %q)", [r.index, c.id, c.name]) if {
	c := result_call(r)
} else := sprintf("tool result at message %d (tool_call_id %q)", [r.index, result_id(r)]) if {
	result_id(r)
} else := sprintf("tool result at message %d (no tool_call_id)", [r.index])

# ---------------------------------------------------------------------------------------------
# Flagged results.

flag_keys := {"error", "timeout", "missing", "incomplete"}

# A tool result whose format marks errors explicitly (is_error: pi isError, Anthropic is_error)
# is flagged exactly when the flag says so, whatever its payload holds: a file read that happens
# to contain {"error": ...} did not fail. Other results (chat, proxy logs) are flagged when their
# content is empty, or when their payload has a truthy flag key.
# The payload is the raw content (chatlint.json_payload: an object or array as is, a string
# holding a JSON object or array parsed; anything else is rejected in Go without parsing), the
# inner text of an inline <tool_result ...>...</tool_result>, and for a list of content parts
# also their joined text.

# Why each flagged tool result is flagged, keyed by message index.
flagged := {r.index: reason | some r in tool_results; reason := flag_reason(r)}

flag_reason(r) := "its is_error flag is true" if {
	r.is_error == true
} else := reason if {
	not is_boolean(object.get(r, "is_error", null))
	reason := codex_reason(r)
} else := reason if {
	not is_boolean(object.get(r, "is_error", null))
	reason := payload_reason(r)
}

# Mirrors the built-in pack since issue 37: a Codex output's exit status, from the call's
# exec_command_end event or the output itself.
codex_reason(r) := sprintf("its exec_command_end event reports exit code %v", [codes[0]]) if {
	input.format == "codex"
	codes := [code |
		some e in input.entries
		e.payload_type == "exec_command_end"
		e.raw.payload.call_id == r.tool_call_id
		code := e.raw.payload.exit_code
		is_number(code)
		code != 0
	]
	codes != []
} else := "its output reports a non-zero exit code" if {
	input.format == "codex"
	regex.match(`\A(?:[^\n]*\n){0,3}[^\n]*?(?i:exit code:?|exited with code) *-?[1-9]|"exit_code": *-?[1-9]`, r.text)
} else := "its output reports a non-zero exit code" if {
	input.format == "codex"
	some code in [r.raw.output.exit_code, r.raw.output.metadata.exit_code]
	is_number(code)
	code != 0
}

payload_reason(r) := "its content is empty" if {
	not r.has_content
} else := "its content is empty" if {
	inline_payload(r) == ""
} else := sprintf("its payload has a truthy flag key at %s", [concat(", ", ptrs)]) if {
	ptrs := array.concat(content_ptrs(r), array.concat(inline_ptrs(r), parts_ptrs(r)))
	ptrs != []
}

# The trimmed inner text of an inline result.
inline_payload(r) := trim_space(inline_inner(r.text)) if startswith(r.text, "<tool_result")

# Flag pointers found in the raw content, the inline inner text, the text of content parts.
content_ptrs(r) := ptrs if {
	ptrs := chatlint.truthy_keys(chatlint.json_payload(r.raw.content), flag_keys)
} else := []

inline_ptrs(r) := ptrs if {
	ptrs := chatlint.truthy_keys(chatlint.json_payload(inline_payload(r)), flag_keys)
} else := []

parts_ptrs(r) := ptrs if {
	is_array(r.raw.content)
	ptrs := chatlint.truthy_keys(chatlint.json_payload(r.text), flag_keys)
} else := []

# inline_inner(s) is the text between the opening <tool_result ...> tag and </tool_result>.
inline_inner(s) := trim_suffix(trim_space(substring(s, i + 1, -1)), "</tool_result>") if {
	i := indexof(s, ">")
	i >= 0
}

# flag_downgraded(r) holds when a flagged result is only a warning.
flag_downgraded(r) if {
	c := result_call(r)
	downgraded(r.turn, c.name, c.id)
}

flag_finding(r) := {
	"rule": "tool-result-flagged",
	"msg": sprintf("%s is flagged: %s", [describe_result(r), flagged[r.index]]),
	"message_index": r.index,
}

# METADATA
# title: tool-result-flagged
# description: >-
#   A tool result reports a failure. Where the format marks errors explicitly (is_error: pi and
#   OpenClaw isError, an Anthropic tool_result block's is_error), the flag decides: true is a
#   failure, false is none whatever the content holds. Otherwise (chat, proxy logs): its content
#   (a JSON object or array, or a string holding one) has a key error, timeout, missing or
#   incomplete (any case, any depth) with a truthy value, or the content is empty or null. A
#   warning instead of an error when the same tool has another call in the block whose result
#   exists and is not flagged (a successful retry), or when the call's assistant turn ended
#   with stop reason aborted or error (the call never ran; agent runtimes, and fix, answer it
#   with a "not executed" error result).
# custom:
#   id: tool-result-flagged
#   severity: error
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "{\"error\": \"city not found\"}"}, {"role": "assistant", "content": "Sorry."}], "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]}
#   fix: >-
#     Drop or repair conversations whose tool calls failed; a failure next to a successful
#     retry of the same tool in the same block is only a warning.
block_deny contains f if {
	some i, _ in flagged
	r := input.messages[i]
	not flag_downgraded(r)
	not not_executed(r)
	f := flag_finding(r)
}

# A failed result of a call whose turn ended aborted or in an error is the runtime's answer
# to a call it never ran (and what fix inserts for such calls): a warning naming the turn.
block_warn contains f if {
	some i, _ in flagged
	r := input.messages[i]
	not_executed(r)
	base := flag_finding(r)
	t := input.messages[r.turn]
	note := sprintf(" (assistant message %d ended with stop reason %q: the call was never executed)", [t.index, t.stop_reason])
	f := object.union(base, {"severity": "warning", "msg": concat("", [base.msg, note])})
}

# not_executed(r) holds for a result in the block of a turn that ended aborted or in an error.
not_executed(r) if input.messages[r.turn].stop_reason in {"aborted", "error"}

block_warn contains f if {
	some i, _ in flagged
	r := input.messages[i]
	flag_downgraded(r)
	not not_executed(r)
	c := result_call(r)
	base := flag_finding(r)
	f := object.union(base, {"severity": "warning", "msg": concat("", [base.msg, downgrade_note(c.name)])})
}

# ---------------------------------------------------------------------------------------------
# Missing results.

missing_finding(t, c) := {
	"rule": "tool-result-missing",
	"msg": sprintf("tool call %q (tool %q) of assistant message %d has no tool result in its block", [c.id, c.name, t]),
	"message_index": t,
	"tool_call_index": c.index,
}

# METADATA
# title: tool-result-missing
# description: >-
#   A tool call with a non-empty id and name has no tool result in its block (before the next
#   assistant message). A warning instead of an error when the same tool has another call in
#   the block whose result exists and is not flagged. Under the default profile, the calls of
#   a chat, ShareGPT or Gemini record, or of a batch result, whose last message is the
#   assistant message that makes them are not reported: a fine-tuning example that ends on a
#   tool call teaches that call, and a batch result is the model's answer (the export profile
#   reports them; a batch request, sent as it is, always does). A call followed by any other
#   message, a user turn say, was never answered and is reported wherever the record ends.
# custom:
#   id: tool-result-missing
#   severity: error
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}, {"role": "assistant", "content": "Probably sunny."}], "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]}
#   fix: >-
#     Add a tool message with the call's `tool_call_id` after the assistant message and
#     before the next assistant message, or remove the call.
block_deny contains f if {
	some [t, c] in unanswered
	not downgraded(t, c.name, c.id)
	f := missing_finding(t, c)
}

block_warn contains f if {
	some [t, c] in unanswered
	downgraded(t, c.name, c.id)
	base := missing_finding(t, c)
	f := object.union(base, {"severity": "warning", "msg": concat("", [base.msg, downgrade_note(c.name)])})
}

# ---------------------------------------------------------------------------------------------
# Orphans.

# Index of the first assistant message with a valid tool call (undefined when there is none).
first_block := min({t | some t, _ in block_calls})

# before_first_block(r) holds for a message before any assistant message with a valid tool call.
before_first_block(_) if count(block_calls) == 0

before_first_block(r) if r.index < first_block

orphan_reason(r) := sprintf("tool result at message %d has no tool_call_id", [r.index]) if {
	not result_id(r)
} else := sprintf("tool result at message %d (tool_call_id %q) comes before any assistant tool call", [r.index, result_id(r)]) if {
	before_first_block(r)
} else := sprintf("tool result at message %d (tool_call_id %q) follows assistant message %d, which has no valid tool call", [r.index, result_id(r), r.turn]) if {
	not block_calls[r.turn]
} else := sprintf("tool result at message %d (tool_call_id %q) matches no tool call of its block (assistant message %d)", [r.index, result_id(r), r.turn])

# METADATA
# title: tool-result-orphan
# description: >-
#   A tool result whose tool_call_id matches no tool call of its block, a tool result without a
#   tool_call_id, or a tool result before any assistant tool call.
# custom:
#   id: tool-result-orphan
#   severity: error
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather in Paris?"}, {"role": "tool", "tool_call_id": "call_1", "content": "{\"temp_c\": 18}"}, {"role": "assistant", "content": "18 °C."}], "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]}
#   fix: >-
#     Give the result the `tool_call_id` of a call of the assistant message it answers and
#     place it after that message, or drop it.
block_deny contains f if {
	tool_results != []
	count(answers) < count(tool_results)
	some r in tool_results
	not answering[r.index]
	f := {"rule": "tool-result-orphan", "msg": orphan_reason(r), "message_index": r.index}
}

# ---------------------------------------------------------------------------------------------
# Duplicates.

# METADATA
# title: tool-result-duplicate
# description: >-
#   Two tool results of one block answer the same tool_call_id; the second and later ones are
#   reported.
# custom:
#   id: tool-result-duplicate
#   severity: error
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "{\"temp_c\": 18}"}, {"role": "tool", "tool_call_id": "call_1", "content": "{\"temp_c\": 18}"}, {"role": "assistant", "content": "18 °C."}], "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]}
#   fix: >-
#     Keep one tool message per tool call and drop the repeats.
block_deny contains f if {
	some i in repeated_answers
	a := answers[i]
	c := block_call(a[0], a[1])
	f := {
		"rule": "tool-result-duplicate",
		"msg": sprintf(
			"tool result at message %d answers tool call %q (tool %q) again; message %d already answered it",
			[a[2], c.id, c.name, min({b[2] | some b in answers; b[0] == a[0]; b[1] == a[1]})],
		),
		"message_index": a[2],
	}
}

# ---------------------------------------------------------------------------------------------
# Call ids repeated within one message.

# METADATA
# title: tool-call-id-duplicate
# description: >-
#   One assistant message issues the same tool call id twice: the second and later calls with the
#   id are reported. Their results cannot say which call they answer (OpenAI: each tool message
#   answers the tool_call_id of one call). The results are not reported as duplicates too.
# custom:
#   id: tool-call-id-duplicate
#   severity: error
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather in Paris and Rome?"}, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}, {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Rome\"}"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "{\"temp_c\": 18}"}, {"role": "tool", "tool_call_id": "call_1", "content": "{\"temp_c\": 24}"}, {"role": "assistant", "content": "18 °C and 24 °C."}], "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]}
#   fix: >-
#     Give every call of the message an id of its own, and its result the same id.
block_deny contains f if {
	some t, calls in block_calls
	some k, c in calls
	k > 0
	some j in numbers.range(0, k - 1)
	calls[j].id == c.id
	first := [d | some d in calls; d.id == c.id][0]
	f := {
		"rule": "tool-call-id-duplicate",
		"msg": sprintf(
			"tool call %q (tool %q) of assistant message %d repeats the id of call %d of the same message",
			[c.id, c.name, t, first.index],
		),
		"message_index": t,
		"tool_call_index": c.index,
	}
}

# ---------------------------------------------------------------------------------------------
# Reused call ids.

# Every valid call as [id, message index, call index], sorted by id then position.
issued := sort([[c.id, t, c.index] | some t, calls in block_calls; some c in calls])

# Positions in issued of calls whose id an earlier entry has too.
repeated_ids := {i |
	some i, a in issued
	i > 0
	issued[i - 1][0] == a[0]
}

# METADATA
# title: tool-call-id-reused
# description: The same tool call id is issued by two different assistant messages.
# custom:
#   id: tool-call-id-reused
#   severity: error
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "{\"temp_c\": 18}"}, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "{\"temp_c\": 18}"}, {"role": "assistant", "content": "18 °C."}], "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]}
#   fix: >-
#     Give every tool call a unique id, and the same id to its tool result.
block_deny contains f if {
	some i in repeated_ids
	a := issued[i]
	first := min({b[1] | some b in issued; b[0] == a[0]})
	a[1] > first
	c := block_call(a[1], a[0])
	f := {
		"rule": "tool-call-id-reused",
		"msg": sprintf(
			"tool call %q (tool %q) of assistant message %d reuses an id already issued by assistant message %d",
			[c.id, c.name, a[1], first],
		),
		"message_index": a[1],
		"tool_call_index": a[2],
	}
}
