package chatlint.finetune

# The conversation as a whole: an empty one, and roles no format (or, under a provider profile,
# no role that provider accepts).

# METADATA
# title: conversation-empty
# description: >-
#   The conversation has nothing to learn from: no message has content or tool calls (or an agent
#   session has no messages at all). A record whose messages list itself is missing or empty is
#   messages-shape's finding, not this one.
# custom:
#   id: conversation-empty
#   severity: error
#   example: |-
#     {"messages": [{"role": "user", "content": ""}, {"role": "assistant", "content": null}]}
#   fix: >-
#     Drop the record, or give it the conversation it was meant to hold.
deny contains f if {
	# Rule indexing skips the rule when the first message has content, as in nearly every record.
	input.messages[0].has_content == false
	not has_substance
	f := {"rule": "conversation-empty", "msg": sprintf("none of the %d messages has content or tool calls", [count(input.messages)])}
}

deny contains f if {
	input.format == "pi-session"
	count(input.messages) == 0
	f := {"rule": "conversation-empty", "msg": "the session has no messages"}
}

has_substance if {
	some m in input.messages
	m.has_content
}

has_substance if {
	some i in input.lookup.assistant
	count(input.messages[i].tool_calls) > 0
}

# known_roles are the roles some input format gives a message: OpenAI chat (system, developer,
# user, assistant, tool, function), Anthropic Messages (user, assistant), pi and OpenClaw
# transcripts (toolResult, normalized to tool, and bashExecution).
known_roles := {"system", "developer", "user", "assistant", "tool", "function", "bashExecution"}

# roles[p] are the roles a provider profile accepts.
roles["openai"] := {"system", "developer", "user", "assistant", "tool", "function"}

roles["mistral"] := {"system", "user", "assistant", "tool"}

roles["together"] := {"system", "user", "assistant", "tool"}

# Bedrock's Claude records keep the system prompt in a top-level "system" string.
roles["bedrock"] := {"user", "assistant"}

accepted_roles := r if {
	r := roles[input.profile]
} else := known_roles

role_scope := sprintf("one %s fine-tuning accepts (%s)", [input.profile, concat(", ", sort(accepted_roles))]) if provider

else := sprintf("one any input format knows (%s)", [concat(", ", sort(known_roles))])

# METADATA
# title: role-unknown
# description: >-
#   A message has a role no input format knows (a typo, a persona name such as "narrator",
#   ShareGPT's human/gpt left unconverted). Under a provider profile, a role that provider's
#   fine-tuning format does not accept, or no role at all (OpenAI: system, developer, user,
#   assistant, tool, function; mistral-finetune and Together: system, user, assistant, tool;
#   Bedrock's Claude format: user and assistant, the system prompt being a top-level string).
# custom:
#   id: role-unknown
#   severity: error
#   example: |-
#     {"messages": [{"role": "narrator", "content": "Once upon a time"}, {"role": "user", "content": "Go on"}, {"role": "assistant", "content": "..."}]}
#   fix: >-
#     Map the role onto one the consumer knows (a persona's lines are the assistant's or the user's).
deny contains f if {
	some r in (input.lookup.roles - accepted_roles)
	r != ""
	some m in input.messages
	m.role == r
	f := {
		"rule": "role-unknown",
		"msg": sprintf("message %d has role %q; the role must be %s", [m.index, m.role, role_scope]),
		"message_index": m.index,
	}
}

# A message without a role is an error under every profile (changed with the YAML rule, issue 37).
deny contains f if {
	"" in input.lookup.roles
	some m in input.messages
	m.role == ""
	f := {
		"rule": "role-unknown",
		"msg": no_role_msg(m.index),
		"message_index": m.index,
	}
}

no_role_msg(i) := sprintf("message %d has no role (a string); it must be %s", [i, role_scope]) if provider

else := sprintf("message %d has no role (a string); every message needs %s", [i, role_scope])
