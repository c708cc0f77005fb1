package chatlint.openai_tools

# Inline mode: tool calls are <tool_call>{...}</tool_call> tags in assistant text, and each tool
# message answers one with its text wrapped in <tool_result tool_call_id="...">...</tool_result>
# (the integrity pack's inline-tool-result-wrapper; ShareGPT's Hermes turns use <tool_response>
# instead, and their results are paired by position). The representation has no ids of its own:
# a call payload without an id takes the id of the result at the same position in its block
# (docs/document.md, inline mode), so a tool message that lacks the wrapper still answers the call
# at its position. The structured rules of tools.rego read calls and results as data and leave
# these records alone; the two rules here repair them without losing a real result:
#
# - a tool message that answers a call of its block (by its tool_call_id, or, without one, the
#   call at its position) but is not wrapped, or wrapped without an id, gets its text wrapped
#   with that call's id (set_content): its content is kept, and the pairing holds;
# - a tool message that answers no call of its block (an orphan, as tool-result-orphan reports
#   it) is dropped, to the rejects.

inline if input.mode == "inline"

# The formats whose inline results are <tool_result> tags (the formats of
# inline-tool-result-wrapper that fix rewrites), where a result is wrapped. Not Gemini: its
# results are functionResponse parts, structured data with no text to wrap, which the normalizer
# gives no id in inline mode; neither rule touches them.
tagged_formats := {"chat", "contract", "proxy-log", "pi-session", "openai-batch-input", "anthropic-batch"}

# The formats where an orphan is dropped: those, and the formats whose results carry ids of
# their own (ShareGPT turns take the id of the call at their position; Claude Code and Codex
# results their tool_use_id or call_id).
orphan_formats := tagged_formats | {"sharegpt", "claude-code", "codex"}

# inline_dirty holds on an inline record one of the rules below would change; the structured
# gate (record_clean) does not see it: a tool message with a matching tool_call_id member but no
# wrapper pairs up as data.
inline_dirty if {
	inline
	some i in inline_orphan
}

inline_dirty if {
	inline
	some i, _ in inline_wrap
}

# The valid calls (non-empty id and name) of each assistant message, as the integrity pack's
# block rules count them: [id, ...] in call order.
inline_block_ids := {m.index: {c.id | some c in m.tool_calls; c.id != ""; c.name != ""} |
	inline
	some m in input.messages
	m.role == "assistant"
	m.tool_calls != []
}

# The indexes of the tool messages of the inline record, in order. Read from the messages, not
# input.lookup: a structured record, which most are, then needs no lookup built for fix.
inline_tools := [m.index | inline; some m in input.messages; m.role == "tool"]

# The tool messages of the inline record that stay (not dropped by another rule of the pack).
inline_results := [r |
	some i in inline_tools
	not gone(i)
	r := input.messages[i]
]

# position(r) is r's position among the tool messages of its block (0 for the first), as the
# normalizer counts it when it gives a call the id of the result at its position.
position(r) := count([j | some j in inline_tools; j > r.turn; j < r.index])

# The id of the call r answers: its own tool_call_id when a valid call of its block has it;
# without one, the id of the valid call at its position.
inline_answers(r) := r.tool_call_id if {
	inline_block_ids[r.turn][r.tool_call_id]
} else := c.id if {
	not rid(r)
	contains(input.messages[r.turn].text, "<tool_call>") # the block's calls are inline, as the result's place says
	c := input.messages[r.turn].tool_calls[position(r)]
	c.name != ""
	inline_block_ids[r.turn][c.id]
}

# The tool messages that answer no call of their block.
inline_orphan := {r.index | input.format in orphan_formats; some r in inline_results; not inline_answers(r)}

# wrapped(r) holds when r's text is a <tool_result ...>...</tool_result> with an id (the tag's
# attribute, or the message's tool_call_id member).
wrapped(r) if {
	startswith(r.text, "<tool_result")
	endswith(r.text, "</tool_result>")
	rid(r)
}

# The body of a result's text inside the wrapper: a text that opens the tag keeps what follows
# the opening tag, without a closing tag; any other text is the body as it is.
result_body(t) := trim_suffix(substring(t, indexof(t, ">") + 1, -1), "</tool_result>") if {
	startswith(t, "<tool_result")
	indexof(t, ">") >= 0
} else := t

open_tag(id) := sprintf("<tool_result tool_call_id=%s>", [json.marshal(id)])

close_tag := "</tool_result>"

# The new content of r, wrapped for the call id: a string (or absent) content becomes the wrapped
# string; a list of parts keeps its parts between a text part opening the tag and one closing it
# (the normalized text joins parts with newlines, which the wrapper's payload trims).
wrapped_content(r, id) := concat("", [open_tag(id), result_body(r.text), close_tag]) if {
	not is_array(object.get(r.raw, "content", null))
} else := array.concat(array.concat([{"type": "text", "text": open_tag(id)}], r.raw.content), [{"type": "text", "text": close_tag}]) if {
	not startswith(r.text, "<tool_result")
}

# Tool messages to wrap: message index -> [call id, new content].
inline_wrap := {r.index: [id, content] |
	input.format in tagged_formats
	some r in inline_results
	not wrapped(r)
	id := inline_answers(r)
	content := wrapped_content(r, id)
}

# METADATA
# title: inline-tool-result-unwrapped
# description: >-
#   Inline mode (<tool_call> tags in assistant text): wraps the text of a tool message that
#   answers a call of its block but lacks the <tool_result tool_call_id="..."> wrapper, keeping
#   its content: <tool_result tool_call_id="ID">TEXT</tool_result>, where ID is the call's (the
#   message's own tool_call_id when a call of its block has it; without one, the id of the call
#   at its position in the block, which an inline payload without an id takes from its result).
#   A list of content parts keeps its parts between a text part opening the tag and one closing
#   it.
# custom:
#   severity: info
#   id: inline-tool-result-unwrapped
#   modes: [inline]
#   formats: [chat, contract, proxy-log, pi-session, openai-batch-input, anthropic-batch]
#   repairs: [inline-tool-result-wrapper, tool-result-orphan]
#   example: '{"messages": [{"role": "user", "content": "6*8?"}, {"role": "assistant", "content": "<tool_call>{\"name\": \"multiply\", \"arguments\": {\"a\": 6, \"b\": 8}}</tool_call>"}, {"role": "tool", "content": "48"}, {"role": "assistant", "content": "48."}]}'
cleanup_actions contains a if {
	some i, [id, content] in inline_wrap
	a := {
		"op": "set_content", "rule": "inline-tool-result-unwrapped", "message_index": i, "content": content,
		"reason": sprintf("tool message %d answers inline call %q of assistant message %d but is not wrapped in <tool_result tool_call_id=...>", [i, id, input.messages[i].turn]),
	}
}

inline_orphan_reason(r) := sprintf("tool message %d comes before any assistant tool call", [r.index]) if {
	not inline_block_ids[r.turn]
} else := sprintf("tool message %d answers %q, which no call of assistant message %d has", [r.index, rid(r), r.turn]) if {
	rid(r)
} else := sprintf("tool message %d has no tool_call_id and assistant message %d has no call at its position", [r.index, r.turn])

# METADATA
# title: inline-tool-result-orphan
# description: >-
#   Inline mode (<tool_call> tags in assistant text): drops a tool message that answers no call
#   of its block: before any assistant message with calls, with a tool_call_id no call of its
#   block has, or without one and with no call at its position in the block.
# custom:
#   severity: info
#   id: inline-tool-result-orphan
#   modes: [inline]
#   formats: [chat, contract, proxy-log, pi-session, openai-batch-input, anthropic-batch, sharegpt, claude-code, codex]
#   repairs: [tool-result-orphan, inline-tool-result-wrapper]
#   example: '{"messages": [{"role": "user", "content": "6*8?"}, {"role": "assistant", "content": "<tool_call>{\"name\": \"multiply\", \"arguments\": {\"a\": 6, \"b\": 8}}</tool_call>"}, {"role": "tool", "content": "<tool_result tool_call_id=\"inline-1-0\">48</tool_result>"}, {"role": "tool", "content": "49"}]}'
cleanup_actions contains a if {
	some i in inline_orphan
	a := {"op": "drop_message", "rule": "inline-tool-result-orphan", "message_index": i, "reason": inline_orphan_reason(input.messages[i])}
}
