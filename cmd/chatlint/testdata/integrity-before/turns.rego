package chatlint.integrity

# Assistant turns that hold nothing.

# METADATA
# title: assistant-turn-aborted
# description: >-
#   An assistant message that was aborted or ended in an error (stop_reason "aborted" or
#   "error", as agent transcripts record it) has no content and no tool calls. A warning: the
#   transcript is faithful, but as training data the turn teaches an empty answer.
# custom:
#   id: assistant-turn-aborted
#   severity: warning
#   example: |-
#     {"type": "session", "id": "s1"}
#     {"type": "message", "message": {"role": "user", "content": [{"type": "text", "text": "Fix the failing test."}]}}
#     {"type": "message", "message": {"role": "assistant", "content": [], "stopReason": "aborted"}}
#   fix: >-
#     Drop the empty turn (and what depends on it), or keep the conversation only up to the
#     turn before it.
warn contains f if {
	input.messages[i].stop_reason in {"aborted", "error"} # one reference; absent on most messages
	m := input.messages[i]
	m.role == "assistant"
	not m.has_content
	m.tool_calls == []
	f := {
		"rule": "assistant-turn-aborted",
		"msg": sprintf("assistant message %d ended with stop reason %q and holds no content and no tool call", [m.index, m.stop_reason]),
		"message_index": m.index,
	}
}
