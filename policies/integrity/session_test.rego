package chatlint.integrity_test

import data.chatlint.integrity

# Session checks over proxy-log documents.

# entry(i, ts, roles) is a valid proxy-log entry on line i+1.
entry(i, ts, roles) := {
	"index": i, "line": i + 1, "type": "request", "session_id": "s1", "timestamp": ts,
	"valid": true, "message_count": count(roles), "roles": roles,
}

session(entries) := with_lookup({
	"format": "proxy-log",
	"mode": "structured",
	"messages": [],
	"tools": [],
	"entries": entries,
	"raw": {"messages": [], "tools": []},
})

# session_hits(doc, rule) ignores the record checks (the squashed record is empty here).
session_hits(doc, rule) := hits(doc, rule)

test_clean_session if {
	d := session([
		entry(0, "2024-05-01T10:00:00Z", ["S", "U"]),
		entry(1, "2024-05-01T10:00:05Z", ["S", "U", "At", "T"]),
		entry(2, "2024-05-01T10:00:09Z", ["S", "U", "At", "T", "Ac", "U"]),
	])
	every rule in ["session-id-mismatch", "timestamp-not-increasing", "trailing-short-entry", "role-sequence-mismatch", "record-missing"] {
		session_hits(d, rule) == set()
	}
}

test_session_checks_ignore_chat_records if {
	d := object.union(session([entry(0, 5, ["U"]), entry(1, 3, ["S"])]), {"format": "chat"})
	count(denied(d) | warned(d)) == 0
}

# ---------------------------------------------------------------------------------------------

test_session_id_mismatch if {
	d := session([
		entry(0, 1, ["U"]),
		object.union(entry(1, 2, ["U", "Ac"]), {"session_id": "s2"}),
		object.remove(entry(2, 3, ["U", "Ac", "U"]), ["session_id"]),
		entry(3, 4, ["U", "Ac", "U", "Ac"]),
	])
	session_hits(d, "session-id-mismatch") == {["error", 1], ["error", 2]}
	some f in denied(d)
	f.entry_index == 1
	contains(f.msg, "entry 2")
	contains(f.msg, "\"s2\"")
}

# ---------------------------------------------------------------------------------------------

test_timestamps_with_offsets_compared_as_instants if {
	# 08:00Z, 08:30Z, 08:45Z: increasing as instants, decreasing as strings
	d := session([
		entry(0, "2024-05-01T10:00:00+02:00", ["U"]),
		entry(1, "2024-05-01T09:30:00+01:00", ["U", "Ac"]),
		entry(2, "2024-05-01T08:45:00Z", ["U", "Ac", "U"]),
	])
	session_hits(d, "timestamp-not-increasing") == set()
}

test_timestamps_with_offsets_not_increasing if {
	# 08:00Z, 08:30Z, 08:15Z (equal instants are not increasing either)
	d := session([
		entry(0, "2024-05-01T10:00:00+02:00", ["U"]),
		entry(1, "2024-05-01T09:30:00+01:00", ["U", "Ac"]),
		entry(2, "2024-05-01T08:15:00.250Z", ["U", "Ac", "U"]),
		entry(3, "2024-05-01T03:15:00.25-05:00", ["U", "Ac", "U", "Ac"]),
	])
	session_hits(d, "timestamp-not-increasing") == {["error", 2], ["error", 3]}
	some f in denied(d)
	f.entry_index == 2
	contains(f.msg, "entry 3")
	contains(f.msg, "entry 2")
}

test_timestamp_variants if {
	d := session([
		entry(0, "2024-05-01 08:00:00", ["U"]),
		entry(1, "2024-05-01t08:00:01,5+0000", ["U", "Ac"]),
		entry(2, "2024-05-01T08:00:01.5z", ["U", "Ac", "U"]),
	])
	session_hits(d, "timestamp-not-increasing") == {["error", 2]}
}

test_numeric_timestamps if {
	d := session([
		entry(0, 1760696744462, ["U"]),
		entry(1, 1760696744463, ["U", "Ac"]),
		entry(2, 1760696744463, ["U", "Ac", "U"]),
		entry(3, 1.5, ["U", "Ac", "U", "Ac"]),
	])
	session_hits(d, "timestamp-not-increasing") == {["error", 2], ["error", 3]}
}

# The fast path holds only for UTC strings of one layout in strictly increasing order; every
# other session is judged instant by instant.
test_timestamps_plainly_increasing if {
	integrity.timestamps_plainly_increasing with input as session([
		entry(0, "2024-05-01T10:00:00.100Z", ["U"]),
		entry(1, "2024-05-01T10:00:00.200Z", ["U", "Ac"]),
		entry(2, "2024-05-01T10:00:01.000Z", ["U", "Ac", "U"]),
	])
	not_plain := [
		["2024-05-01T10:00:00Z", "2024-05-01T10:00:00Z"],
		["2024-05-01T10:00:01Z", "2024-05-01T10:00:00Z"],
		["2024-05-01T10:00:00Z", "2024-05-01T10:00:00.5Z"],
		["2024-05-01T10:00:00+00:00", "2024-05-01T10:00:01+00:00"],
		["2024-05-01 10:00:00Z", "2024-05-01 10:00:01Z"],
		["2024-05-01T10:00:00.0000000001Z", "2024-05-01T10:00:00.0000000002Z"],
		[1, 2],
	]
	every p in not_plain {
		not integrity.timestamps_plainly_increasing with input as session([entry(0, p[0], ["U"]), entry(1, p[1], ["U", "Ac"])])
	}
}

test_timestamps_beyond_nanoseconds_are_equal if {
	d := session([
		entry(0, "2024-05-01T10:00:00.0000000001Z", ["U"]),
		entry(1, "2024-05-01T10:00:00.0000000002Z", ["U", "Ac"]),
	])
	session_hits(d, "timestamp-not-increasing") == {["error", 1]}
}

test_uncomparable_timestamps_are_skipped if {
	d := session([
		entry(0, "2024-05-01T10:00:00Z", ["U"]),
		entry(1, 5, ["U", "Ac"]),
		entry(2, "yesterday", ["U", "Ac", "U"]),
		object.remove(entry(3, 0, ["U", "Ac", "U", "Ac"]), ["timestamp"]),
		entry(4, null, ["U", "Ac", "U", "Ac", "U"]),
	])
	session_hits(d, "timestamp-not-increasing") == set()
}

# ---------------------------------------------------------------------------------------------

test_trailing_short_entry if {
	d := session([
		entry(0, 1, ["S", "U"]),
		entry(1, 2, ["S", "U", "At", "T"]),
		entry(2, 3, ["S", "U"]),
	])
	session_hits(d, "trailing-short-entry") == {["warning", 2]}

	# the truncated entry is not compared by role-sequence-mismatch
	session_hits(d, "role-sequence-mismatch") == set()
}

test_trailing_entry_of_equal_length_is_fine if {
	d := session([entry(0, 1, ["S", "U"]), entry(1, 2, ["S", "U"])])
	session_hits(d, "trailing-short-entry") == set()
}

# ---------------------------------------------------------------------------------------------

test_role_sequence_ac_at_to_act_allowed if {
	d := session([
		entry(0, 1, ["S", "U", "Ac", "At", "T"]),
		entry(1, 2, ["S", "U", "Act", "T", "Ac", "U"]),
	])
	session_hits(d, "role-sequence-mismatch") == set()
}

test_role_sequence_act_to_ac_at_reported if {
	d := session([
		entry(0, 1, ["S", "U", "Act", "T"]),
		entry(1, 2, ["S", "U", "Ac", "At", "T", "Ac"]),
	])
	session_hits(d, "role-sequence-mismatch") == {["error", 1]}
	some f in denied(d)
	f.rule == "role-sequence-mismatch"
	contains(f.msg, "entry 1 [S U Act T]")
	contains(f.msg, "entry 2's [S U Ac At T Ac]")
}

test_role_sequence_plain_prefixes if {
	# a prefix that stops inside an Ac At pair, repeated pairs, and A tokens
	d := session([
		entry(0, 1, ["S", "U", "Ac"]),
		entry(1, 2, ["S", "U", "Ac", "At", "T", "Ac", "At", "T"]),
		entry(2, 3, ["S", "U", "Act", "T", "Ac", "At", "T", "A", "U"]),
		entry(3, 4, ["S", "U", "Act", "T", "Act", "T", "A", "U", "Ac"]),
	])
	session_hits(d, "role-sequence-mismatch") == set()
}

# The rule's fast path accepts an entry whose trace starts with the earlier trace token for
# token; the token-by-token comparison must agree on every such pair (and also accepts the
# Ac At -> Act split the fast path leaves to it).
test_plain_prefixes_are_trace_prefixes if {
	pairs := [
		[[], []],
		[[], ["S"]],
		[["S", "U"], ["S", "U"]],
		[["S", "U", "Ac"], ["S", "U", "Ac", "At", "T"]],
		[["S", "U", "Ac", "At", "T"], ["S", "U", "Ac", "At", "T", "Act"]],
	]
	every p in pairs {
		integrity.trace_prefix(p[0], p[1])
	}
	integrity.trace_prefix(["S", "U", "Ac", "At"], ["S", "U", "Act"])
	not integrity.trace_prefix(["S", "U", "T"], ["S", "U"])
	not integrity.trace_prefix(["S", "U"], ["U", "S", "U"])
}

test_role_sequence_mismatches if {
	d := session([
		entry(0, 1, ["S", "U"]),
		entry(1, 2, ["S", "U", "Ac", "U"]),
		entry(2, 3, ["U", "Ac", "U", "Ac", "U"]),
		entry(3, 4, ["U", "Ac", "U", "At", "T", "U"]),
		entry(4, 5, ["U", "Ac", "U", "At", "T", "U", "Ac"]),
	])
	session_hits(d, "role-sequence-mismatch") == {["error", 2], ["error", 3]}
}

test_role_sequence_ac_then_act_is_a_mismatch if {
	d := session([entry(0, 1, ["S", "U", "Ac"]), entry(1, 2, ["S", "U", "Act", "T"])])
	session_hits(d, "role-sequence-mismatch") == {["error", 1]}
}

test_role_sequence_skips_invalid_entries if {
	d := session([
		entry(0, 1, ["S", "U"]),
		object.union(entry(1, 2, []), {"valid": false}),
		entry(2, 3, ["S", "U", "Ac", "U"]),
	])
	session_hits(d, "role-sequence-mismatch") == set()
	session_hits(d, "record-missing") == set()
}

# ---------------------------------------------------------------------------------------------

test_record_missing if {
	d := session([
		object.union(entry(0, 1, []), {"valid": false, "message_count": 0}),
		object.union(entry(1, 2, []), {"valid": false, "message_count": 0}),
	])
	session_hits(d, "record-missing") == {["error", null]}
	session_hits(d, "trailing-short-entry") == set()
	session_hits(d, "role-sequence-mismatch") == set()
}
