package chatlint.openai_tools

# The OpenAI API's rules for tool messages, as cleanup actions over the normalized document: a
# tool message must answer a tool call of an earlier assistant message, right after it, once.
# Where the usual repair scripts lose data, these rules keep it: two assistant tool-call messages
# with null content are not duplicates (their calls differ), a sentence repeated turns later is
# kept (only a repeat of the message right before counts), list content is compared as data, and
# renamed ids are derived from the id, never from a clock.
#
# Rules that drop a message come first; the others leave those messages alone, so one pass never
# asks for two things on one message.
#
# Cost: most records are clean, and OPA pays per evaluation step and per virtual document, so
# the rules put their actions in cleanup_actions, and actions looks at it only on a record that
# record_clean cannot prove clean (a few scans of the messages). Their METADATA declares the rule
# ids as it would on actions (custom.severity is required off the actions set; it is not used).

actions contains a if {
	needs_action
	count(unreadable) == 0
	some a in cleanup_actions
}

# needs_action holds on a record some rule may change: one record_clean cannot prove clean, or an
# inline record whose tool messages need their wrapper or are orphans (inline.rego).
needs_action if not record_clean

needs_action if inline_dirty

# record_clean holds on a record no rule below would change: every message has a role, no two
# neighbours have the same role and text (the cheap half of an exact repeat), and tools_clean.
record_clean if {
	not role_missing
	not neighbours_alike
	tools_clean
}

role_missing if {
	some m in input.messages
	m.role == ""
}

neighbours_alike if {
	some i, m in input.messages
	i > 0
	p := input.messages[i - 1]
	p.role == m.role
	p.text == m.text
}

# Tool calls and results as data (tool_calls lists, call blocks); inline tags are left alone.
structured if input.mode == "structured"

# ---------------------------------------------------------------------------------------------
# Messages dropped whole.

# The sets other rules look up are complete rules (comprehensions): computed once per document,
# where a lookup into a partial set would evaluate its body again for each key.
no_role := {m.index | some m in input.messages; m.role == ""}

absent := {"chatlint: absent": true}

# same(a, b) holds when two messages have the same role, content, tool calls and tool_call_id
# (the normalized one: toolCallId and toolUseId in agent transcripts).
same(a, b) if {
	is_object(a.raw)
	is_object(b.raw)
	object.get(a.raw, "role", absent) == object.get(b.raw, "role", absent)
	object.get(a.raw, "content", absent) == object.get(b.raw, "content", absent)
	object.get(a.raw, "tool_calls", absent) == object.get(b.raw, "tool_calls", absent)
	object.get(a, "tool_call_id", absent) == object.get(b, "tool_call_id", absent)
}

repeat := {m.index |
	some m in input.messages
	m.index > 0
	not no_role[m.index]
	p := input.messages[m.index - 1]
	p.role == m.role # cheap tests first: most neighbours differ here
	p.text == m.text
	same(p, m)
}

# METADATA
# title: message-repeated
# description: >-
#   Drops a message that repeats the message right before it exactly: same role, content, tool
#   calls and tool_call_id. A repeat further away (a user asking the same thing turns later) is
#   kept.
# custom:
#   severity: info
#   id: message-repeated
#   repairs: [message-repeated]
#   example: '{"messages": [{"role": "user", "content": "hi"}, {"role": "user", "content": "hi"}]}'
cleanup_actions contains a if {
	some i in repeat
	a := {"op": "drop_message", "rule": "message-repeated", "message_index": i, "reason": sprintf("message %d repeats message %d exactly", [i, i - 1])}
}

gone(i) if repeat[i]

# ---------------------------------------------------------------------------------------------
# Clean records.

# tools_clean holds on a record whose tool calls and results need nothing: every call of an
# assistant message has an id no other call has, every tool message answers a call of the
# assistant message it follows (its turn), once, and sits in the run of tool messages right after
# it. Most records are clean, and this is one scan of the calls and one of the results; the
# rules below look no further on them (OPA pays per evaluation step).
tools_clean if {
	pairs_clean
	not result_apart
}

# pairs_clean holds when every call of an assistant message has an id no other call has and every
# tool message answers a call of the assistant message it follows (its turn), once: tools_clean
# but for where the results sit.
pairs_clean if {
	calls := [[t, c.id] | some t, m in input.messages; m.role == "assistant"; some c in m.tool_calls]
	pairs := {c | some c in calls}
	ids := {c[1] | some c in calls}
	count(ids) == count(calls)
	not ids[""]
	answered := [[r.turn, object.get(r, "tool_call_id", null)] | some r in input.messages; r.role == "tool"]
	count({a | some a in answered}) == count(answered)
	every a in answered {
		pairs[a]
	}
}

# result_apart holds when a tool message does not follow its assistant message or another tool
# message.
result_apart if {
	some r in input.messages
	r.role == "tool"
	p := input.messages[r.index - 1]
	p.index != r.turn
	p.role != "tool"
}

result_apart if input.messages[0].role == "tool"

# ---------------------------------------------------------------------------------------------
# Tool calls.

# paired holds on a structured record whose results only need moving: pairs_clean, no message
# dropped as a repeat, and every result with an id of a call of its turn. Then each result's
# issuer is its turn (the one call with its id is there, before it), and it is that call's one
# answer: no result is unknown or a duplicate, and the lookups below (a sort of every call and
# result) are not needed.
paired if {
	structured
	not tools_clean
	pairs_clean
	count(repeat) == 0
	count(no_id) == 0
	count(paired_answers) == count(results)
}

paired_answers := {r.index: r.turn | some r in results; r.turn < r.index}

# Every call with an id of an assistant message that stays: [message index, call index, id].
issued := [[m.index, c.index, c.id] |
	structured
	not tools_clean
	some m in input.messages
	m.role == "assistant"
	not repeat[m.index]
	some c in m.tool_calls
	c.id != ""
]

# A fine-tuning record that ends on an assistant message with calls teaches those calls (under the
# default profile): records of transformers, TRL and LLaMA-Factory carry no ids, and their
# templates need none. The integrity pack's tool-call-missing-id leaves them alone too.
training_target(m) if {
	input.format in {"chat", "sharegpt", "gemini", "xlam"}
	not input.profile == "export" # input.profile, not object.get(input, ...): input whole is read as all of it
	m.index == count(input.messages) - 1
}

# METADATA
# title: tool-call-missing-id
# description: >-
#   Drops an entry of an assistant message's tool_calls without an id (no tool message can answer
#   it), except in the last message of a fine-tuning record (chat, ShareGPT, xLAM, Gemini), whose
#   calls are its training target. A call block of the content without an id is left alone.
# custom:
#   severity: info
#   id: tool-call-missing-id
#   modes: [structured]
#   repairs: [tool-call-missing-id]
#   example: '{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": null, "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": "{}"}}]}]}'
cleanup_actions contains a if {
	structured
	not tools_clean
	some m in input.messages
	m.role == "assistant"
	not gone(m.index)
	not training_target(m)
	some c in m.tool_calls
	c.id == ""
	contains(c.path, "/tool_calls/")
	a := {
		"op": "drop_tool_call", "rule": "tool-call-missing-id", "message_index": m.index, "tool_call_index": c.index,
		"reason": sprintf("tool call %d (tool %q) of message %d has no id", [c.index, c.name, m.index]),
	}
}

# ---------------------------------------------------------------------------------------------
# Tool results.

results := [m | structured; not tools_clean; some m in input.messages; m.role == "tool"; not repeat[m.index]]

rid(r) := r.tool_call_id if {
	is_string(r.tool_call_id)
	r.tool_call_id != ""
}

# The issued calls sorted by [id, message, call], so the calls of one id, and of one id in one
# message, are neighbours: the lookups below read a group, where a scan of every call for each
# result or call would be quadratic in a long session.
issued_by_id := sort([[x, m, c] | some [m, c, x] in issued])

id_start := {k[0]: n | some n, k in issued_by_id; not issued_by_id[n - 1][0] == k[0]}

id_last := {k[0]: n | some n, k in issued_by_id; not issued_by_id[n + 1][0] == k[0]}

# issuer(r) is the assistant message that issued r's id last before r.
issuer(r) := max(ms) if {
	x := rid(r)
	ms := {m | some n in numbers.range(id_start[x], id_last[x]); m := issued_by_id[n][1]; m < r.index}
	count(ms) > 0
}

no_id := {r.index | some r in results; not rid(r)}

# The issuer of each result that has one, computed once.
issuer_of := paired_answers if {
	paired
} else := {r.index: i | some r in results; i := issuer(r)}

unknown := set() if {
	paired
} else := {r.index | some r in results; rid(r); not issuer_of[r.index]}

# The answers of each issued call. A message may issue one id several times (parallel calls
# sharing an id): its k-th call of that id is answered by the k-th result with that id after it,
# so results travel with their calls, and only a result beyond the calls is a duplicate, whatever
# its content. Keyed by [message index, id, k]. The results are sorted by [issuer, id, index]
# once, so the first of each key is the one before it that differs, and k is the distance to it.
keyed := sort([[i, rid(r), r.index] | some r in results; i := issuer_of[r.index]])

# The positions of the calls of message m with id x, in call order, keyed by [m, x].
mx_start := {[k[1], k[0]]: n | some n, k in issued_by_id; not same_mx(n - 1, k)}

same_mx(n, k) if {
	p := issued_by_id[n]
	[p[0], p[1]] == [k[0], k[1]]
}

calls_of := {mx: cs |
	some mx, s in mx_start
	cs := [c | some n in numbers.range(s, id_last[mx[1]]); k := issued_by_id[n]; k[1] == mx[0]; c := k[2]]
}

group_start := {[k[0], k[1]]: n | some n, k in keyed; first_key(n, k)}

answers := {[k[0], k[1], r]: k[2] |
	some n, k in keyed
	g := [k[0], k[1]]
	r := n - group_start[g]
	r < count(calls_of[g])
}

first_key(n, _) if n == 0

first_key(n, k) if {
	n > 0
	p := keyed[n - 1]
	[p[0], p[1]] != [k[0], k[1]]
}

answering := {a | some a in answers}

duplicate := set() if {
	paired
} else := {r.index | some r in results; issuer_of[r.index]; not answering[r.index]}

# The last answer of the calls of message i with id x: a duplicate comes after it.
last_answer(i, x) := a if {
	mx := [i, x]
	k := [i, x, count(calls_of[mx]) - 1]
	a := answers[k]
}

# METADATA
# title: tool-result-missing-id
# description: Drops a tool message without a tool_call_id.
# custom:
#   severity: info
#   id: tool-result-missing-id
#   modes: [structured]
#   repairs: [tool-result-orphan]
#   example: '{"messages": [{"role": "user", "content": "hi"}, {"role": "tool", "content": "42"}]}'
cleanup_actions contains a if {
	some i in no_id
	a := {"op": "drop_message", "rule": "tool-result-missing-id", "message_index": i, "reason": sprintf("tool message %d has no tool_call_id", [i])}
}

# METADATA
# title: tool-result-unknown-id
# description: Drops a tool message whose tool_call_id no earlier assistant tool call issued.
# custom:
#   severity: info
#   id: tool-result-unknown-id
#   modes: [structured]
#   repairs: [tool-result-orphan]
#   example: '{"messages": [{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "call_9", "content": "42"}]}'
cleanup_actions contains a if {
	some i in unknown
	a := {
		"op": "drop_message", "rule": "tool-result-unknown-id", "message_index": i,
		"reason": sprintf("tool message %d answers %q, which no earlier assistant message issued", [i, input.messages[i].tool_call_id]),
	}
}

# METADATA
# title: tool-result-repeated
# description: >-
#   Drops a tool message whose call already has a result; the later one is dropped, whatever its
#   content. A message issuing one id in k parallel calls has k results with it, in order.
# custom:
#   severity: info
#   id: tool-result-repeated
#   modes: [structured]
#   repairs: [tool-result-duplicate]
#   example: '{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}, {"role": "tool", "tool_call_id": "c1", "content": "1"}, {"role": "tool", "tool_call_id": "c1", "content": "2"}]}'
cleanup_actions contains a if {
	some i in duplicate
	r := input.messages[i]
	a := {
		"op": "drop_message", "rule": "tool-result-repeated", "message_index": i,
		"reason": sprintf("tool message %d answers %q again; message %d already answered it", [i, r.tool_call_id, last_answer(issuer_of[i], rid(r))]),
	}
}

# ---------------------------------------------------------------------------------------------
# Results away from their call.

# The messages some rule above drops, as one set: kept looks each message up once.
dropped := ((repeat | no_id) | unknown) | duplicate

# The kept answers of the calls of message i, by message index.
answer_of := paired_answers if {
	paired
} else := {a: i | some key, a in answers; i := key[0]}

# The run of results right after assistant message i: the kept messages after it that answer its
# calls, up to the first that does not (dropped messages do not break a run). Found for every
# assistant message at once from the kept messages in order (a scan from each message to the end
# would be quadratic in a long session): each kept message is labelled with the assistant message
# it answers (a message answering none with a label of its own), and a run ends where the label
# changes.
kept := [m.index | some m in input.messages; not dropped[m.index]]

kept_pos := {j: p | some p, j in kept}

# A message's label: the assistant message it answers, or -1 - its index.
labels := [object.get(answer_of, j, -1 - j) | some j in kept]

# The positions in kept where the label differs from the one before, in order.
changes := [p | some p, l in labels; p > 0; l != labels[p - 1]]

change_at := {p: k | some k, p in changes}

# The position in kept of the first message after i that breaks its run: the change after the run
# of i's answers that starts right after it, or the message right after it when no answer of i
# does.
gap_pos(i) := g if {
	p := kept_pos[i] + 1
	labels[p] == i
	g := changes[change_at[p] + 1]
} else := count(kept) if {
	labels[kept_pos[i] + 1] == i
} else := kept_pos[i] + 1

# The first message after i that breaks its run of results.
first_gap(i) := j if {
	j := kept[gap_pos(i)]
} else := count(input.messages)

# The last kept message of the run: results moved back go after it.
run_end(i) := kept[gap_pos(i) - 1]

# METADATA
# title: tool-result-misplaced
# description: >-
#   Moves a tool message that another message separates from its call back, right after the
#   call's other results (the API rejects a tool message that does not follow its call).
# custom:
#   severity: info
#   id: tool-result-misplaced
#   modes: [structured]
#   repairs: [tool-result-separated]
#   example: '{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}, {"role": "user", "content": "well?"}, {"role": "tool", "tool_call_id": "c1", "content": "1"}]}'
cleanup_actions contains a if {
	some j, i in answer_of
	j > first_gap(i)
	a := {
		"op": "move_message", "rule": "tool-result-misplaced", "message_index": j, "after": run_end(i), "rank": j,
		"reason": sprintf("tool message %d answers a call of assistant message %d but message %d comes between", [j, i, first_gap(i)]),
	}
}

# ---------------------------------------------------------------------------------------------
# Reused ids.

taken := {x | some [_, _, x] in issued}

# The n-th issue of an id, in record order (1 for the first).
nth_of := {[k[1], k[2]]: v | some n, k in issued_by_id; v := (n - id_start[k[0]]) + 1}

nth(m, c, _) := n if {
	mc := [m, c]
	n := nth_of[mc]
}

new_id(m, c, x) := id if {
	id := sprintf("%s_%d", [x, nth(m, c, x)])
	not taken[id]
} else := sprintf("%s_%d_m%d", [x, nth(m, c, x), m])

# METADATA
# title: tool-call-id-reused
# description: >-
#   Renames a tool call whose id an earlier call of the record already used to ID_2, ID_3, ...
#   (in record order), together with the tool message that answers it: for parallel calls of one
#   message sharing an id, the k-th call takes the k-th result with that id.
# custom:
#   severity: info
#   id: tool-call-id-reused
#   modes: [structured]
#   repairs: [tool-call-id-reused, tool-call-id-duplicate]
#   example: '{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}, {"role": "tool", "tool_call_id": "c1", "content": "1"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}, {"role": "tool", "tool_call_id": "c1", "content": "2"}]}'
cleanup_actions contains a if {
	not paired
	some [m, c, x] in issued
	nth(m, c, x) > 1
	a := {
		"op": "rename_tool_call_id", "rule": "tool-call-id-reused", "message_index": m, "tool_call_index": c,
		"id": new_id(m, c, x), "results": answered(m, c, x),
		"reason": sprintf("tool call id %q of message %d was already used earlier in the record", [x, m]),
	}
}

# The result answering a renamed call: the answer at its position among the calls of its message
# with that id (the second of two parallel calls sharing an id takes the second result).
answered(m, c, x) := [r] if {
	mc := [m, c]
	k := call_rank[mc]
	key := [m, x, k]
	r := answers[key]
} else := []

# The position of each call [message, call] among the calls of its message with its id, found once
# (a scan of those calls for each would be quadratic in a message whose calls share one id).
call_rank := {[mx[0], c]: k | some mx, cs in calls_of; some k, c in cs}

# ---------------------------------------------------------------------------------------------
# Records fix cannot read (the same rule in both cleanup packs: record-unreadable here,
# transcript-unreadable in transcript).
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

# A message without a role (missing, null, empty, not a string, or no object at all) is one fix
# does not understand: dropping it would lose its content, guessing a role would invent one. The
# record is left as it is; check reports the message (role-unknown).
unreadable contains sprintf("message %s has no role", [numbers_list(no_role)]) if {
	count(no_role) == 1
}

unreadable contains sprintf("messages %s have no role", [numbers_list(no_role)]) if {
	count(no_role) > 1
}

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
	not known_part_types[p.type]
	not endswith(p.type, "_text")
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
# title: record-unreadable
# description: >-
#   Leaves a record fix cannot read exactly as it is, with a note saying why, instead of dropping
#   pieces of it: content parts of a type it does not know, parts keyed value instead of text
#   (LLaMA-Factory), tools or tool_calls that are not lists (a JSON string). Only a record some
#   other rule of the pack would change is looked at.
# custom:
#   severity: warning
#   id: record-unreadable
#   example: '{"messages": [{"role": "user", "content": "6*8?"}, {"role": "assistant", "content": [{"type": "tool_call", "value": "{\"name\": \"multiply\"}"}]}, {"role": "tool", "content": [{"type": "text", "value": "48"}]}], "tools": "[]"}'
actions contains a if {
	needs_action
	count(unreadable) > 0
	a := {"op": "keep_record", "rule": "record-unreadable", "reason": concat("; ", sort(unreadable))}
}
