package chatlint.claude_code

# Rules over a Claude Code session's entries (one per line, with uuid, parent_uuid, type and
# on_chain: whether the entry is part of the conversation Claude Code resumes; see
# docs/document.md). Every set is built once per document by a comprehension and looked up.
#
# Sets hold entry indices, and functions take an index, never an entry: an entry put into a
# value or handed to a function is read whole, every member of its raw line, so the builder
# would keep all of them (docs/document.md, "Members no rule reads"); named members are all it
# decodes.

cc if input.format == "claude-code"

# The indices of the entries linked into the tree: those with a uuid.
linked := [i | cc; some i, e in input.entries; is_string(object.get(e, "uuid", null)); e.uuid != ""]

uuid_set := {input.entries[i].uuid | some i in linked}

parent_of(i) := p if {
	p := object.get(input.entries[i], "parent_uuid", null)
	is_string(p)
	p != ""
}

# The cuts: entries whose parent is not in the file.
cuts := [i | some i in linked; p := parent_of(i); not uuid_set[p]]

# The index of the first entry with each uuid.
ids := sort([[input.entries[i].uuid, i] | some i in linked])

first_index := {x[0]: x[1] | some i, x in ids; first_of_id(i)}

first_of_id(i) if i == 0

first_of_id(i) if {
	i > 0
	ids[i - 1][0] != ids[i][0]
}

# A loop of links needs an entry whose parent comes after it in the file, or is itself (an
# entry whose parentUuid is its own uuid); Claude Code writes a parent before its children, so
# the graph below is built only when some entry links forward (building it costs a lookup per
# entry and uuid).
forward := [i | some i in linked; p := parent_of(i); first_index[p] >= i]

# [parent, child] links, sorted: each parent's children are one run of them, which
# children_of reads by its first and last index, so that the graph costs a pass over the
# links rather than one per uuid.
links := sort([[p, input.entries[i].uuid] | forward != []; some i in linked; p := parent_of(i)])

run_start := id_starts(links)

run_end := id_ends(links)

# The first and last index of each first member's run in ps, a sorted list of pairs.
id_starts(ps) := {p[0]: k | some k, p in ps; not same_id(ps, k - 1, k)}

id_ends(ps) := {p[0]: k | some k, p in ps; not same_id(ps, k, k + 1)}

same_id(ps, a, b) if ps[a][0] == ps[b][0]

children_of(u) := {links[j][1] | some j in numbers.range(run_start[u], run_end[u])} if {
	run_start[u]
} else := set()

children := {u: children_of(u) | forward != []; some u in uuid_set}

roots := {input.entries[i].uuid | some i in linked; not parent_of(i)}

reached := graph.reachable(children, roots)

below_cuts := graph.reachable(children, {input.entries[i].uuid | some i in cuts})

# Entries on a loop of links (or below one): neither a root nor a cut leads to them.
looping := [i |
	forward != []
	some i in linked
	not reached[input.entries[i].uuid]
	not below_cuts[input.entries[i].uuid]
]

# METADATA
# title: claude-code-chain-broken
# description: >-
#   An entry's parentUuid names no entry of the file, or parentUuid links loop so that entries
#   cannot be reached from the root. Claude Code resumes a session by walking parentUuid links up
#   from the last entry; a cut loses everything above it, a loop never ends.
# custom:
#   id: claude-code-chain-broken
#   severity: error
#   formats: [claude-code]
#   example: |-
#     {"parentUuid":null,"isSidechain":false,"sessionId":"s","type":"user","message":{"role":"user","content":"hi"},"uuid":"u1"}
#     {"parentUuid":"gone","isSidechain":false,"sessionId":"s","type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"hello"}]},"uuid":"a1"}
#   fix: >-
#     Point the entry's parentUuid at the entry before it in the conversation (the uuid of the
#     previous user or assistant entry).
deny contains f if {
	cc
	some i in cuts
	e := input.entries[i]
	f := {
		"rule": "claude-code-chain-broken",
		"msg": sprintf("%s entry %q names parentUuid %q, which no entry of the file has: the chain is cut here, and resuming the session loses every entry before it", [e.type, e.uuid, parent_of(i)]),
		"entry_index": i,
	}
}

deny contains f if {
	cc
	looping != []
	i := looping[0]
	e := input.entries[i]
	f := {
		"rule": "claude-code-chain-broken",
		"msg": sprintf("%d entries (from %s entry %q) are linked in a loop of parentUuid links: no root leads to them", [count(looping), e.type, e.uuid]),
		"entry_index": i,
	}
}

# METADATA
# title: claude-code-uuid-duplicate
# description: >-
#   Two entries of a Claude Code session have the same uuid, so a parentUuid naming it is
#   ambiguous and one of the two entries drops out of the resumed conversation.
# custom:
#   id: claude-code-uuid-duplicate
#   severity: error
#   formats: [claude-code]
#   example: |-
#     {"parentUuid":null,"isSidechain":false,"sessionId":"s","type":"user","message":{"role":"user","content":"hi"},"uuid":"u1"}
#     {"parentUuid":"u1","isSidechain":false,"sessionId":"s","type":"user","message":{"role":"user","content":"again"},"uuid":"u1"}
#   fix: Give each entry a uuid of its own, and the entries after it the new parentUuid.
deny contains f if {
	cc
	count(uuid_set) < count(linked)
	some i, x in ids
	i > 0
	ids[i - 1][0] == x[0]
	f := {
		"rule": "claude-code-uuid-duplicate",
		"msg": sprintf("entry at line %d has uuid %q, as the entry at line %d has", [input.entries[x[1]].line, x[0], input.entries[ids[i - 1][1]].line]),
		"entry_index": x[1],
	}
}

# ---------------------------------------------------------------------------------------------
# Tool calls and results split across branches.

blocks(i) := [b | some b in input.entries[i].raw.message.content; is_object(b)] if {
	is_array(input.entries[i].raw.message.content)
} else := []

off_chain := [i | cc; some i, e in input.entries; e.on_chain == false]

# [id, entry index] of the tool_use and tool_result blocks of entries off the chain.
off_calls := {[b.id, i] | some i in off_chain; input.entries[i].type == "assistant"; some b in blocks(i); b.type == "tool_use"}

off_results := {[b.tool_use_id, i] | some i in off_chain; input.entries[i].type == "user"; some b in blocks(i); b.type == "tool_result"}

chain_results := {input.messages[i].tool_call_id | some i in input.lookup.tool}

# The pairs sorted, with the first and last position of each id: a call or result looks up its
# id's run instead of scanning every pair (quadratic in a session of many branches).
off_calls_sorted := sort(off_calls)

off_call_first := id_starts(off_calls_sorted)

off_call_last := id_ends(off_calls_sorted)

off_results_sorted := sort(off_results)

off_result_first := id_starts(off_results_sorted)

off_result_last := id_ends(off_results_sorted)

branch_note(i) := "a sidechain" if input.entries[i].is_sidechain == true

else := "another branch"

# METADATA
# title: claude-code-tool-result-other-branch
# description: >-
#   A tool result of the resumed conversation answers a tool_use that only an entry of another
#   branch (or a sidechain) holds, or a tool call of the conversation has its result only in
#   another branch: resuming sends the API one half of the pair.
# custom:
#   id: claude-code-tool-result-other-branch
#   severity: error
#   formats: [claude-code]
#   fix: >-
#     Drop the stray result (chatlint fix drops it as an orphan and gives the call a synthetic
#     error result), or re-parent the branch's entries onto the conversation.
deny contains f if {
	off_calls != set()
	some i in input.lookup.tool
	r := input.messages[i]
	x := r.tool_call_id
	not input.lookup.call_ids[x]
	some n in numbers.range(off_call_first[x], off_call_last[x])
	p := off_calls_sorted[n]
	e := input.entries[p[1]]
	f := {
		"rule": "claude-code-tool-result-other-branch",
		"msg": sprintf("tool result at message %d answers tool_use %q, which is in %s (%s entry %q, line %d), not in the resumed conversation", [i, x, branch_note(p[1]), e.type, e.uuid, e.line]),
		"message_index": i,
	}
}

deny contains f if {
	off_results != set()
	some [t, x] in input.lookup.calls
	not chain_results[x]
	some n in numbers.range(off_result_first[x], off_result_last[x])
	p := off_results_sorted[n]
	e := input.entries[p[1]]
	c := [c | some c in input.messages[t].tool_calls; c.id == x][0]
	f := {
		"rule": "claude-code-tool-result-other-branch",
		"msg": sprintf("tool call %q (tool %q) of assistant message %d has its result in %s (%s entry %q, line %d), not in the resumed conversation", [x, c.name, t, branch_note(p[1]), e.type, e.uuid, e.line]),
		"message_index": t,
		"tool_call_index": c.index,
	}
}

# ---------------------------------------------------------------------------------------------
# Results of parallel calls out of order.

# [turn, result message index, position of the answered call], in message order.
answered := sort([[r.turn, i, k] |
	cc
	some i in input.lookup.tool
	r := input.messages[i]
	r.turn >= 0
	some k, c in input.messages[r.turn].tool_calls
	c.id == r.tool_call_id
])

# The turns whose results answer their calls out of order: a result that follows (in message
# order) the result of a later call of the same turn. One pass over answered, which is sorted
# by turn, then message index.
disordered := {a[0] |
	some i, a in answered
	i > 0
	p := answered[i - 1]
	p[0] == a[0]
	p[2] > a[2]
}

ids_of(t, ks) := [input.messages[t].tool_calls[k].id | some k in ks]

# The first and last index in answered of the results of each disordered turn: one run, as
# answered is sorted by turn, read by index rather than by a pass over answered per turn.
turn_first := {a[0]: j | some j, a in answered; disordered[a[0]]; answered_starts(j)}

turn_last := {a[0]: j | some j, a in answered; disordered[a[0]]; answered_ends(j)}

answered_starts(j) if j == 0

answered_starts(j) if {
	j > 0
	answered[j - 1][0] != answered[j][0]
}

answered_ends(j) if j == count(answered) - 1

answered_ends(j) if {
	j < count(answered) - 1
	answered[j + 1][0] != answered[j][0]
}

# METADATA
# title: claude-code-results-out-of-order
# description: >-
#   The results of the parallel tool calls of one assistant message are stored in another order
#   than the calls (as a resumed session may store them); the API pairs them by id, but tools
#   that replay the session in order, and training on it, see each result after the wrong call.
# custom:
#   id: claude-code-results-out-of-order
#   severity: warning
#   formats: [claude-code]
#   fix: chatlint fix moves each result right after the previous call's result, in call order.
warn contains f if {
	some t in disordered
	ks := [answered[j][2] | some j in numbers.range(turn_first[t], turn_last[t])]
	first := answered[turn_first[t]][1]
	f := {
		"rule": "claude-code-results-out-of-order",
		"msg": sprintf("the results of the parallel calls of assistant message %d are stored in the order %s, not in call order %s", [t, json.marshal(ids_of(t, ks)), json.marshal(ids_of(t, sort(ks)))]),
		"message_index": first,
	}
}

# ---------------------------------------------------------------------------------------------
# Entry shape.

entry_problem(i) := "it has no type: it is not a Claude Code entry" if {
	not is_string(object.get(input.entries[i].raw, "type", null))
} else := sprintf("its message is a %s, not an object: the entry holds no message", [type_name(e.raw.message)]) if {
	e := input.entries[i]
	e.type in {"user", "assistant"}
	not is_object(object.get(e.raw, "message", null))
} else := "its message has no content" if {
	e := input.entries[i]
	e.type in {"user", "assistant"}
	object.get(e.raw.message, "content", null) == null
} else := sprintf("content block %d of its message is a %s, not a block object", [k, type_name(b)]) if {
	e := input.entries[i]
	e.type in {"user", "assistant"}
	is_array(e.raw.message.content)
	some k, b in e.raw.message.content
	not is_object(b)
}

# METADATA
# title: claude-code-entry-shape
# description: >-
#   A line of a Claude Code session is not an entry Claude Code can read: it has no type, a user
#   or assistant entry has no message object (or one without content), or a content block is not
#   an object.
# custom:
#   id: claude-code-entry-shape
#   severity: error
#   formats: [claude-code]
#   example: |-
#     {"parentUuid":null,"isSidechain":false,"sessionId":"s","type":"user","message":"error","uuid":"u1"}
#   fix: Drop the line, or restore its message from a backup of the session.
deny contains f if {
	cc
	some i, _ in input.entries
	problem := entry_problem(i) # first: most entries have none, and need no name
	f := {
		"rule": "claude-code-entry-shape",
		"msg": sprintf("%s: %s", [entry_name(i), problem]),
		"entry_index": i,
	}
}

entry_name(i) := sprintf("%s entry %q", [e.type, e.uuid]) if {
	e := input.entries[i]
	is_string(object.get(e, "uuid", null))
} else := sprintf("%s entry", [e.type]) if {
	e := input.entries[i]
	e.type != ""
} else := "entry"
