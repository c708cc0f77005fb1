package chatlint.claude_code_test

import data.chatlint.claude_code

entry(i, uuid, parent, typ) := {
	"index": i, "line": i + 1, "type": typ, "uuid": uuid, "parent_uuid": parent, "on_chain": true,
	"raw": {"type": typ, "uuid": uuid, "parentUuid": parent, "message": {"role": typ, "content": "x"}},
}

session(es) := {"format": "claude-code", "entries": es, "messages": [], "lookup": {"tool": [], "calls": set(), "call_ids": set()}}

rules(d) := {f.rule | some f in claude_code.deny with input as d} | {f.rule | some f in claude_code.warn with input as d}

test_linked_session_is_clean if {
	rules(session([entry(0, "u1", null, "user"), entry(1, "a1", "u1", "assistant")])) == set()
}

test_missing_parent_is_a_cut if {
	some f in claude_code.deny with input as session([entry(0, "u1", null, "user"), entry(1, "a1", "gone", "assistant")])
	f.rule == "claude-code-chain-broken"
	f.entry_index == 1
}

test_loop_is_reported_once if {
	d := session([entry(0, "u1", null, "user"), entry(1, "a1", "u2", "assistant"), entry(2, "u2", "a1", "user")])
	fs := [f | some f in claude_code.deny with input as d; f.rule == "claude-code-chain-broken"]
	count(fs) == 1
	fs[0].entry_index == 1
}

test_self_parent_is_a_loop if {
	d := session([entry(0, "u1", null, "user"), entry(1, "a1", "a1", "assistant")])
	fs := [f | some f in claude_code.deny with input as d; f.rule == "claude-code-chain-broken"]
	count(fs) == 1
	fs[0].entry_index == 1
	contains(fs[0].msg, "1 entries (from assistant entry \"a1\") are linked in a loop")
}

test_other_formats_are_not_checked if {
	d := object.union(session([entry(0, "u1", "gone", "user")]), {"format": "pi-session"})
	rules(d) == set()
}

test_results_out_of_order if {
	calls := [{"index": 0, "id": "a"}, {"index": 1, "id": "b"}]
	d := {
		"format": "claude-code", "entries": [],
		"messages": [
			{"index": 0, "role": "assistant", "turn": 0, "tool_calls": calls},
			{"index": 1, "role": "tool", "turn": 0, "tool_call_id": "b", "tool_calls": []},
			{"index": 2, "role": "tool", "turn": 0, "tool_call_id": "a", "tool_calls": []},
		],
		"lookup": {"tool": [1, 2], "calls": {[0, "a"], [0, "b"]}, "call_ids": {"a", "b"}},
	}
	some f in claude_code.warn with input as d
	f.rule == "claude-code-results-out-of-order"
	f.message_index == 1
}
