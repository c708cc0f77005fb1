package chatlint.integrity

# Session checks: proxy-log documents only (one file is one session), as each rule declares in
# custom.formats; the format test in each body lets OPA's rule index skip it on other documents. Entries are 1-based in
# messages, as users count lines and entries; entry_index stays the 0-based index.

# The entries with a request.messages list, in file order.
valid_entries := [e | input.format == "proxy-log"; some e in input.entries; e.valid == true]

# The largest request message count of the session.
max_count := max({e.message_count | some e in valid_entries})

# Position in valid_entries of the last entry with the maximum count: convert keeps the
# entries up to it and drops the trailing shorter ones.
last_max_pos := max({i | some i, e in valid_entries; e.message_count == max_count})

# show(x) renders a value as JSON for messages.
show(x) := json.marshal(x)

# ---------------------------------------------------------------------------------------------

# METADATA
# title: session-id-mismatch
# description: Every entry of a proxy-log session has the session_id of the first entry.
# custom:
#   id: session-id-mismatch
#   formats: [proxy-log]
#   severity: error
#   example: |-
#     {"timestamp": "2024-05-01T10:00:00Z", "session_id": "sess-1", "request": {"messages": [{"role": "system", "content": "You are helpful."}, {"role": "user", "content": "Weather in Paris?"}]}}
#     {"timestamp": "2024-05-01T10:00:05Z", "session_id": "sess-2", "request": {"messages": [{"role": "system", "content": "You are helpful."}, {"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "{\"temp_c\": 18}"}]}}
#   fix: >-
#     Put each session in its own file, or correct the `session_id`.
deny contains f if {
	input.format == "proxy-log" # indexed: the rule is skipped for other formats
	first := object.get(input.entries[0], "session_id", null)
	some i, e in input.entries
	i > 0
	sid := object.get(e, "session_id", null)
	sid != first
	f := {
		"rule": "session-id-mismatch",
		"msg": sprintf("entry %d has session_id %s, but the first entry has %s", [i + 1, show(sid), show(first)]),
		"entry_index": i,
	}
}

# ---------------------------------------------------------------------------------------------

# instant(t) is [kind, value] for a timestamp: numbers compare as numbers, ISO-8601 strings as
# instants (nanoseconds since the epoch, offsets applied). Other values are not comparable.
instant(t) := ["number", t] if is_number(t)

instant(t) := ["time", ns] if {
	is_string(t)
	ns := iso_instant_ns(t)
}

# iso_instant_ns(s) parses an ISO-8601 date-time: "T", "t" or a space between date and time,
# optional fraction (dot or comma), offset "Z", "+hh:mm", "+hhmm" or none (taken as UTC). The
# pattern only admits valid field ranges, so time.parse_rfc3339_ns fails (and, with strict
# builtin errors, aborts) only on impossible days such as Feb 30.
iso_instant_ns(s) := time.parse_rfc3339_ns(concat("", [g[1], "T", replace(g[2], ",", "."), iso_offset(g[3])])) if {
	g := regex.find_all_string_submatch_n(
		`^(\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01]))[Tt ]((?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:[.,]\d+)?)([Zz]|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?$`,
		trim_space(s), 1,
	)[0]
}

iso_offset(o) := "Z" if {
	o in {"", "z", "Z"}
} else := concat(":", [substring(o, 0, 3), substring(o, 3, 2)]) if {
	count(o) == 5
} else := o

# timestamps_plainly_increasing: the common case of a clean session, proved with a few calls
# per session instead of parsing every timestamp. Every timestamp is a UTC date-time string of
# one layout (the same length: the same number of fraction digits, at most the 9 an instant
# keeps), so their order as strings is their order as instants, and the strings are strictly
# increasing. A value the parse below rejects (month 13, Feb 30) is never compared, so it
# cannot make a finding either way.
timestamps_plainly_increasing if {
	ts := [t | some e in input.entries; t := object.get(e, "timestamp", null); is_string(t)]
	count(ts) == count(input.entries)
	count({count(t) | some t in ts}) == 1
	regex.match(`^(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z\n)+$`, concat("", [concat("\n", ts), "\n"]))
	sort(ts) == ts
	count({t | some t in ts}) == count(ts)
}

# METADATA
# title: timestamp-not-increasing
# description: >-
#   Entry timestamps of a proxy-log session are strictly increasing in file order; ISO-8601
#   strings are compared as instants (offsets applied), numbers as numbers. Missing,
#   unparseable or mixed-kind timestamps are not compared.
# custom:
#   id: timestamp-not-increasing
#   formats: [proxy-log]
#   severity: error
#   example: |-
#     {"timestamp": "2024-05-01T10:00:00+02:00", "session_id": "sess-1", "request": {"messages": [{"role": "system", "content": "You are helpful."}, {"role": "user", "content": "Weather in Paris?"}]}}
#     {"timestamp": "2024-05-01T07:59:00Z", "session_id": "sess-1", "request": {"messages": [{"role": "system", "content": "You are helpful."}, {"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "{\"temp_c\": 18}"}]}}
#   fix: >-
#     Order the entries by time, or correct the timestamps (equal timestamps are not
#     increasing either).
deny contains f if {
	input.format == "proxy-log" # indexed: the rule is skipped for other formats
	not timestamps_plainly_increasing
	some i, e in input.entries
	i > 0
	prev := input.entries[i - 1]
	a := instant(object.get(prev, "timestamp", null))
	b := instant(object.get(e, "timestamp", null))
	a[0] == b[0]
	b[1] <= a[1]
	f := {
		"rule": "timestamp-not-increasing",
		"msg": sprintf(
			"entry %d has timestamp %s, which is not after entry %d's %s",
			[i + 1, show(e.timestamp), i, show(prev.timestamp)],
		),
		"entry_index": i,
	}
}

# ---------------------------------------------------------------------------------------------

# METADATA
# title: trailing-short-entry
# description: >-
#   The last entry of a proxy-log session has fewer request messages than the session maximum;
#   convert truncates the session to the last entry with the maximum.
# custom:
#   id: trailing-short-entry
#   formats: [proxy-log]
#   severity: warning
#   example: |-
#     {"timestamp": "2024-05-01T10:00:00Z", "session_id": "sess-1", "request": {"messages": [{"role": "system", "content": "You are helpful."}, {"role": "user", "content": "Weather in Paris?"}]}}
#     {"timestamp": "2024-05-01T10:00:05Z", "session_id": "sess-1", "request": {"messages": [{"role": "system", "content": "You are helpful."}, {"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "{\"temp_c\": 18}"}]}}
#     {"timestamp": "2024-05-01T10:00:09Z", "session_id": "sess-1", "request": {"messages": [{"role": "system", "content": "You are helpful."}, {"role": "user", "content": "Weather in Paris?"}]}}
#   fix: >-
#     Nothing, if dropping the short trailing entries is right (convert keeps the session up
#     to the last longest entry); otherwise move those entries to a session of their own.
warn contains f if {
	input.format == "proxy-log" # indexed: the rule is skipped for other formats
	n := count(valid_entries)
	n > 0
	last := valid_entries[n - 1]
	last.message_count < max_count
	keep := valid_entries[last_max_pos]
	f := {
		"rule": "trailing-short-entry",
		"msg": sprintf(
			"the last entry (entry %d) has %d request messages, fewer than the session maximum %d; the session is truncated to entry %d",
			[last.index + 1, last.message_count, max_count, keep.index + 1],
		),
		"entry_index": last.index,
	}
}

# ---------------------------------------------------------------------------------------------
# Role traces. A prior "Ac At" pair is equivalent to a later "Act", not the other way round.
# Both traces are rewritten with every adjacent "Ac At" pair merged into one token "Ac+At";
# then the earlier trace is a prefix of the later one when, position by position, the tokens
# are equal, or the earlier has "Ac+At" where the later has "Act", or the earlier trace ends
# with "Ac" where the later has "Ac+At" (a plain prefix that stops inside the pair).

merge_pairs(seq) := [tok | some i, t in seq; not pair_tail(seq, i); tok := merged_token(seq, i, t)]

pair_tail(seq, i) if {
	seq[i] == "At"
	i > 0
	seq[i - 1] == "Ac"
}

merged_token(seq, i, t) := "Ac+At" if {
	t == "Ac"
	seq[i + 1] == "At"
} else := t

token_compatible(a, b, _) if a == b

token_compatible("Ac+At", "Act", _)

token_compatible("Ac", "Ac+At", true)

trace_prefix(p, n) if {
	mp := merge_pairs(p)
	mn := merge_pairs(n)
	count(mp) <= count(mn)
	last := count(mp) - 1
	every k, tok in mp {
		token_compatible(tok, mn[k], k == last)
	}
}

show_trace(roles) := concat(" ", [s | some r in roles; s := trace_token(r)])

trace_token(r) := r if is_string(r)

else := json.marshal(r)

# METADATA
# title: role-sequence-mismatch
# description: >-
#   Each entry's role trace (S, U, T, and assistant as Ac, At, Act or A) is a prefix of the
#   next entry's; a prior "Ac At" pair is equivalent to a later "Act". Trailing entries that
#   convert truncates are not compared.
# custom:
#   id: role-sequence-mismatch
#   formats: [proxy-log]
#   severity: error
#   example: |-
#     {"timestamp": "2024-05-01T10:00:00Z", "session_id": "sess-1", "request": {"messages": [{"role": "system", "content": "You are helpful."}, {"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "content": "Let me check.", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "{\"temp_c\": 18}"}]}}
#     {"timestamp": "2024-05-01T10:00:05Z", "session_id": "sess-1", "request": {"messages": [{"role": "system", "content": "You are helpful."}, {"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "content": "Let me check."}, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "{\"temp_c\": 18}"}]}}
#   fix: >-
#     Each request must resend the history of the previous one unchanged; split sessions
#     whose history was rewritten, or drop the entries that diverge.
deny contains f if {
	input.format == "proxy-log" # indexed: the rule is skipped for other formats
	some k, cur in valid_entries
	k > 0
	k <= last_max_pos
	prev := valid_entries[k - 1]
	p := object.get(prev, "roles", [])
	n := object.get(cur, "roles", [])

	# Fast path: a plain prefix (a session resending its history unchanged) implies
	# trace_prefix, at the cost of one slice and one comparison instead of merging both traces
	# token by token. Written inline: a function call would hash both traces for its cache.
	array.slice(n, 0, count(p)) != p
	not trace_prefix(p, n)
	f := {
		"rule": "role-sequence-mismatch",
		"msg": sprintf(
			"the role trace of entry %d [%s] is not a prefix of entry %d's [%s]",
			[prev.index + 1, show_trace(object.get(prev, "roles", [])), cur.index + 1, show_trace(object.get(cur, "roles", []))],
		),
		"entry_index": cur.index,
	}
}

# ---------------------------------------------------------------------------------------------

# METADATA
# title: record-missing
# description: >-
#   No conversation record can be produced for a proxy-log session: no entry has a
#   request.messages list.
# custom:
#   id: record-missing
#   formats: [proxy-log]
#   severity: error
#   example: |-
#     {"timestamp": "2024-05-01T10:00:00Z", "session_id": "sess-1", "request": {"messages": "Weather in Paris?"}}
#   fix: >-
#     Log the request's `messages` list (or `body.messages`) in the entries, or drop the
#     file.
deny contains f if {
	input.format == "proxy-log" # indexed: the rule is skipped for other formats
	count(valid_entries) == 0
	f := {
		"rule": "record-missing",
		"msg": sprintf("no conversation record can be produced: none of the %d entries has a request.messages list", [count(input.entries)]),
	}
}

# ---------------------------------------------------------------------------------------------

# METADATA
# title: proxy-http-error
# description: >-
#   A proxy-log entry whose response carries an HTTP status of 400 or more (response.status,
#   status_code or statusCode): the provider refused or failed the request, whatever the log's
#   own "success" field says (gateways set it when they merely relayed the answer). The
#   entry holds no model reply to train on. Follows the HTTP semantics of RFC 9110 §15.5-15.6
#   (4xx client errors, 5xx server errors).
# custom:
#   id: proxy-http-error
#   formats: [proxy-log]
#   severity: error
#   example: |-
#     {"timestamp": 1760696744462, "request": {"method": "POST", "path": "/v1/messages", "body": {"model": "claude-sonnet-4", "messages": [{"role": "user", "content": "Hi"}]}}, "response": {"status": 401, "body": {"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"}}}, "success": true}
#   fix: >-
#     Drop the failed entries (or the session) from the dataset, or fix what made the
#     provider refuse them (credentials, method, request shape) and log the session again.
deny contains f if {
	input.format == "proxy-log" # indexed: the rule is skipped for other formats
	some e in input.entries
	e.status >= 400
	f := {
		"rule": "proxy-http-error",
		"msg": sprintf("entry %d got HTTP status %d: the request failed, whatever the log's success field says", [e.index + 1, e.status]),
		"entry_index": e.index,
	}
}
