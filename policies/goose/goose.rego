package chatlint.goose

# Cleanup rules for goose agent logs. The document is one proxy-log entry seen as a chat record:
# input.raw.messages are the entry's request messages, input.raw.response its response. The rules
# put actions in the set `actions`, which convert applies as fix does (engine/fix): drop_message
# and set_content name a message by its target among the normalized messages (see target),
# drop_record drops the whole entry.
#
# The rules behave as if applied one after the other, in the order they are written here, on
# the same message list: the empty-assistant rule looks at the next message left after the
# <info-msg> drops, and the title rule at the first two messages left after both drops.
#
# Texts are read as goose's converter reads them: a string content as is, a list of parts as
# the `text` of its parts of type "text" joined with nothing; any other content has no text.
# White space is Python's (str.isspace), not only ASCII.

msgs := object.get(input, ["raw", "messages"], [])

# ws is one white-space character as Python's str.strip and \s (Unicode) see it.
ws := `[\t-\r\x{1c}-\x{1f}\x{85}\p{Z}]`

# text(m) is the text of message m; undefined when its content is neither a string nor a list.
text(m) := m.content if is_string(m.content)

text(m) := concat("", [p.text | some p in m.content; is_object(p); object.get(p, "type", null) == "text"; is_string(p.text)]) if {
	is_array(m.content)
}

# target(i) is the pointer of raw message i among the normalized messages (input.messages), which
# actions name: the same index, except after a user message whose Anthropic tool_result blocks
# were split into messages of their own.
target(i) := sprintf("/messages/%d", [k]) if {
	some k, m in input.messages
	m.path == sprintf("/messages/%d", [i])
}

truthy(x) if not falsy(x)

falsy(x) if x == null

falsy(x) if x == false

falsy(x) if x == ""

falsy(x) if x == []

falsy(x) if x == {}

falsy(x) if x == 0

# ---------------------------------------------------------------------------------------------

# METADATA
# title: goose-info-message
# description: >-
#   A user message whose whole text is one <info-msg>…</info-msg> block (white space around it
#   allowed, over any number of lines) is a notice goose injects, not something the user said:
#   drop it.
# custom:
#   id: goose-info-message
#   severity: info
info_msg contains i if {
	some i, m in msgs
	m.role == "user"
	regex.match(concat("", [`(?s)\A`, ws, `*<info-msg>.*</info-msg>`, ws, `*\z`]), text(m))
}

actions contains {
	"op": "drop_message",
	"target": target(i),
	"rule": "goose-info-message",
	"reason": "user message is a goose <info-msg> notice",
} if some i in info_msg

# ---------------------------------------------------------------------------------------------

replacement := "You are a general-purpose AI agent"

# METADATA
# title: goose-system-prompt
# description: >-
#   A system message containing goose's built-in prompt ("general-purpose AI agent called goose",
#   any case, any white space between the words) is replaced by one short, stable instruction.
# custom:
#   id: goose-system-prompt
#   severity: info
goose_system contains i if {
	some i, m in msgs
	m.role == "system"
	regex.match(concat("", [`(?i)general-purpose`, ws, `+AI`, ws, `+agent`, ws, `+called`, ws, `+goose`]), text(m))
}

actions contains {
	"op": "set_content",
	"target": target(i),
	"content": replacement,
	"rule": "goose-system-prompt",
	"reason": "system message is goose's built-in prompt",
} if some i in goose_system

# ---------------------------------------------------------------------------------------------

# Message indexes left after the <info-msg> drops, in order.
after_info := [i | some i, _ in msgs; not info_msg[i]]

# METADATA
# title: goose-empty-assistant
# description: >-
#   An assistant message with empty or white-space text (an empty list counts; no content at all
#   does not), no tool_calls and no tool_call_id, directly followed by another assistant message,
#   is a stray turn: drop it.
# custom:
#   id: goose-empty-assistant
#   severity: info
empty_assistant contains i if {
	some k, i in after_info
	m := msgs[i]
	m.role == "assistant"
	msgs[after_info[k + 1]].role == "assistant"
	regex.match(concat("", [`\A`, ws, `*\z`]), text(m))
	not truthy(object.get(m, "tool_calls", null))
	not truthy(object.get(m, "tool_call_id", null))
}

actions contains {
	"op": "drop_message",
	"target": target(i),
	"rule": "goose-empty-assistant",
	"reason": "empty assistant message followed by another assistant message",
} if some i in empty_assistant

# ---------------------------------------------------------------------------------------------

# Message indexes left after every message drop, in order.
kept := [i | some i in after_info; not empty_assistant[i]]

# kept_text(i) is the text of message i after the system prompt replacement.
kept_text(i) := replacement if goose_system[i]

else := text(msgs[i])

# The words of a text, split on white space as Python's str.split() does.
words(s) := regex.find_n(concat("", ["[^", trim_prefix(ws, "["), "+"]), s, -1)

# METADATA
# title: goose-title-request
# description: >-
#   goose asks the model for a title of the session in a side request (system "Reply with only a
#   description in four words or less", user "Here are the first few user messages:") and gets a
#   reply of one to six words: not part of the conversation, so the whole entry is dropped.
# custom:
#   id: goose-title-request
#   severity: info
title_request if {
	count(kept) >= 2
	msgs[kept[0]].role == "system"
	msgs[kept[1]].role == "user"
	regex.match(concat("", [`\A`, ws, `*Reply with only a description in four words or less`]), kept_text(kept[0]))
	regex.match(concat("", [`\A`, ws, `*Here are the first few user messages:`]), kept_text(kept[1]))
	reply := input.raw.response.choices[0].message
	reply.role == "assistant"
	n := count(words(text(reply)))
	n >= 1
	n <= 6
}

actions contains {
	"op": "drop_record",
	"rule": "goose-title-request",
	"reason": "entry is goose's session-title side request",
} if title_request
