package chatlint.integrity

# Pairing of tool calls and tool results, per block: the rules that read the results' payloads
# and the retry downgrade (tool-result-flagged, tool-result-missing). The pairing and id rules
# that relate elements by key only (tool-result-orphan, tool-result-duplicate,
# tool-call-id-duplicate, tool-call-id-reused) are YAML rules in rules/integrity/blocks.yaml.
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

# The calls without an answer in their block: [block, call]. The calls of the training target
# are not: they are what the example teaches.
unanswered := [[t, c] |
	some t, calls in block_calls
	t != training_target
	some c in calls
	not answered_calls[[t, c.id]]
]

# The training target of a chat record, under the default profile: its last message, when that
# is an assistant message with tool calls. A function-calling fine-tuning example ends on the
# call the model must learn to make; the call's result is not part of the example. A call
# followed by anything — a user turn, say — was never answered, wherever the record ends.
# (Under the export profile, and in other formats, a conversation that ends on a call that
# never got a result is missing it.)
training_target := t if {
	input.format == "chat"
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
	reason := payload_reason(r)
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
#   exists and is not flagged (a successful retry).
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
	f := flag_finding(r)
}

block_warn contains f if {
	some i, _ in flagged
	r := input.messages[i]
	flag_downgraded(r)
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
#   a chat record whose last message is the assistant message that makes them are not
#   reported: a fine-tuning example that ends on a tool call teaches that call (the export
#   profile reports them). A call followed by any other message, a user turn say, was never
#   answered and is reported wherever the record ends.
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
