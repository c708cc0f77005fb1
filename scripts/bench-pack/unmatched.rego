package chatlint.bench

# The one-rule pack scripts/bench evaluates with chatlint, `opa eval` and conftest over the
# same records. It reads only what a raw chat record and chatlint's normalized document share
# (messages[].role, tool_call_id, tool_calls[].id), so all three find the same records.

# METADATA
# title: tool-result-unmatched
# description: A tool message whose tool_call_id no assistant tool call of the record issued.
# custom:
#   id: tool-result-unmatched
#   severity: error
deny contains f if {
	ids := {c.id | some m in input.messages; m.role == "assistant"; some c in m.tool_calls}
	some i, m in input.messages
	m.role == "tool"
	not ids[m.tool_call_id]
	f := {
		"rule": "tool-result-unmatched",
		"msg": sprintf("message %d: tool_call_id %v matches no tool call", [i, object.get(m, "tool_call_id", null)]),
		"message_index": i,
	}
}
