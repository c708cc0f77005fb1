package chatlint.finetune

# The mistral profile: what mistral-finetune's data validator (utils/validate_data.py, which
# builds each example with finetune/data/tokenize.py's build_instruct_sample) and
# mistral_common's MistralRequestValidatorV3 in finetuning mode refuse. The system messages are
# taken out of the conversation (its system prompt) before the validator sees the rest.

# mistral_turns are the messages the validator sees: every message but the system ones.
mistral_turns := [m | some m in input.messages; m.role != "system"]

# mistral_content is a raw message's content, "content" or "text" (both are read), or null.
mistral_content(m) := m.content if {
	not is_null(object.get(m, "content", null))
} else := m.text if {
	not is_null(object.get(m, "text", null))
} else := null

mistral_calls(m) if not is_null(object.get(m, "tool_calls", null))

# METADATA
# title: mistral-conversation-key
# description: >-
#   mistral-finetune: a record holds its conversation in messages or in interactions (both
#   names are read, as the same list of messages), not in both. chatlint reads an interactions
#   record as a chat record whose messages are its interactions, so every mistral rule checks it.
# custom:
#   id: mistral-conversation-key
#   severity: error
#   profiles: [mistral]
#   formats: [chat]
#   refs:
#     - mistralai/mistral-finetune finetune/data/tokenize.py@a8ba3281962ee560ea5c69073212620ceb032869 (build_instruct_sample, messages_keys = ["messages", "interactions"])
#   example: |-
#     {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"}], "interactions": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"}]}
#   fix: >-
#     Keep one of the two lists (mistral-finetune refuses the record otherwise).
deny contains f if {
	input.profile == "mistral"
	"messages" in object.keys(input.raw)
	"interactions" in object.keys(input.raw)
	f := {"rule": "mistral-conversation-key", "msg": "the record has both messages and interactions; mistral-finetune takes one of the two", "path": "/interactions"}
}

# METADATA
# title: mistral-message-content
# description: >-
#   mistral-finetune: a message has content ("content", or "text", never both); only an
#   assistant message that calls tools may go without. Content is a string (a user's or the
#   system's may also be a list of chunks); a number, an object or a boolean is refused.
# custom:
#   id: mistral-message-content
#   severity: error
#   profiles: [mistral]
#   formats: [chat]
#   refs:
#     - mistralai/mistral-finetune finetune/data/tokenize.py@20704b220d6f08ce1213387f593282f4f60e3fa1 (build_instruct_sample)
#     - mistralai/mistral-finetune utils/validate_data.py@0e24c534180df084277b4a6aac6092fee107167d
#   example: |-
#     {"messages": [{"role": "user", "content": 42}, {"role": "assistant", "content": "Forty-two."}]}
#   fix: >-
#     Give every message its text as a string in content.
deny contains f if {
	input.profile == "mistral"
	some m in input.messages
	is_object(m.raw)
	problem := mistral_content_problem(m.raw, m.role)
	f := {"rule": "mistral-message-content", "msg": sprintf("message %d (%s) %s", [m.index, label(m.role), problem]), "message_index": m.index}
}

mistral_content_problem(raw, _) := "has both text and content; mistral-finetune takes one of the two" if {
	"text" in object.keys(raw)
	"content" in object.keys(raw)
} else := "has no content (neither content nor text)" if {
	not mistral_calls(raw)
	is_null(mistral_content(raw))
} else := sprintf("has content that is %s, not a string", [type_name(c)]) if {
	c := mistral_content(raw)
	not is_null(c)
	not is_string(c)
	not mistral_chunks(c, raw)
}

# mistral_chunks holds for a list of content chunks where mistral_common takes one: in a user's
# or the system's message.
mistral_chunks(c, raw) if {
	is_array(c)
	object.get(raw, "role", "") in {"user", "system"}
}

# METADATA
# title: mistral-assistant-content
# description: >-
#   mistral_common (finetuning mode): an assistant message has either content or tool calls,
#   not both and not neither ("Assistant message must have either content or tool_calls, but
#   not both"); an empty string is no content.
# custom:
#   id: mistral-assistant-content
#   severity: error
#   profiles: [mistral]
#   formats: [chat]
#   refs:
#     - mistralai/mistral-common src/mistral_common/protocol/instruct/validator.py@039465db2bdc0486df36365c9bdb428188482a18 (_validate_assistant_message)
#   example: |-
#     {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": ""}]}
#   fix: >-
#     Give the assistant's reply text, or its tool calls with content null — never both.
deny contains f if {
	input.profile == "mistral"
	some m in input.messages
	m.role == "assistant"
	is_object(m.raw)
	problem := mistral_assistant_problem(m.raw)
	f := {"rule": "mistral-assistant-content", "msg": sprintf("assistant message %d %s", [m.index, problem]), "message_index": m.index}
}

mistral_assistant_problem(raw) := "has both content and tool calls; mistral-finetune takes one or the other" if {
	truthy_value(mistral_content(raw))
	truthy_value(object.get(raw, "tool_calls", null))
} else := "has neither content nor tool calls (an empty content is none)" if {
	not truthy_value(mistral_content(raw))
	not truthy_value(object.get(raw, "tool_calls", null))
	not is_null(mistral_content(raw)) # a missing content is mistral-message-content's finding
}

# truthy_value is Python's bool() of a JSON value.
truthy_value(x) if {
	is_string(x)
	x != ""
}

truthy_value(x) if {
	is_array(x)
	count(x) > 0
}

truthy_value(x) if {
	is_object(x)
	count(x) > 0
}

truthy_value(x) if {
	is_number(x)
	x != 0
}

truthy_value(true)

# METADATA
# title: mistral-weight
# description: >-
#   mistral_common (finetuning mode): an assistant message's weight is 0 or 1 ("Assistant
#   message weight must be either 0 or 1"); a weight on another role is not read.
# custom:
#   id: mistral-weight
#   severity: error
#   profiles: [mistral]
#   formats: [chat]
#   refs:
#     - mistralai/mistral-common src/mistral_common/protocol/instruct/validator.py@039465db2bdc0486df36365c9bdb428188482a18 (_validate_assistant_message)
#   example: |-
#     {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!", "weight": 0.5}]}
#   fix: >-
#     Use weight 0 to leave the message out of training, 1 to train on it.
deny contains f if {
	input.profile == "mistral"
	some m in input.messages
	m.role == "assistant"
	w := object.get(m.raw, "weight", null)
	not is_null(w)
	not w in {0, 1}
	f := {"rule": "mistral-weight", "msg": sprintf("assistant message %d has weight %v; it must be 0 or 1", [m.index, w]), "message_index": m.index, "path": concat("", [m.path, "/weight"])}
}

# METADATA
# title: mistral-system
# description: >-
#   mistral-finetune: an example has at most one system message ("Multiple messages with role
#   'system' encountered. Only one is allowed").
# custom:
#   id: mistral-system
#   severity: error
#   profiles: [mistral]
#   formats: [chat]
#   refs:
#     - mistralai/mistral-finetune finetune/data/tokenize.py@20704b220d6f08ce1213387f593282f4f60e3fa1 (build_instruct_sample)
#   example: |-
#     {"messages": [{"role": "system", "content": "Be brief."}, {"role": "system", "content": "Be kind."}, {"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"}]}
#   fix: >-
#     Merge the system messages into one.
deny contains f if {
	input.profile == "mistral"
	systems := [m.index | some m in input.messages; m.role == "system"]
	count(systems) > 1
	f := {"rule": "mistral-system", "msg": sprintf("the example has %d system messages (messages %v); mistral-finetune takes one", [count(systems), systems]), "message_index": systems[1]}
}

# mistral_next are the roles mistral_common lets follow each role (system messages taken out).
mistral_next := {
	"user": {"user", "assistant"},
	"assistant": {"assistant", "user", "tool"},
	"tool": {"assistant", "tool"},
}

# METADATA
# title: mistral-message-order
# description: >-
#   mistral-finetune: after the system message, the conversation starts with the user's message,
#   and each message may follow the one before it as mistral_common's validator allows (a tool
#   result follows the assistant's call or another result; after a result comes a result or the
#   assistant). The example's last message is mistral-last-message's.
# custom:
#   id: mistral-message-order
#   severity: error
#   profiles: [mistral]
#   formats: [chat]
#   refs:
#     - mistralai/mistral-common src/mistral_common/protocol/instruct/validator.py@039465db2bdc0486df36365c9bdb428188482a18 (_validate_message_order, _validate_message_list_structure)
#   example: |-
#     {"messages": [{"role": "system", "content": "Be brief."}, {"role": "assistant", "content": "Hello!"}, {"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Yes?"}]}
#   fix: >-
#     Start the conversation with the user's message; put each tool result right after the call.
deny contains f if {
	input.profile == "mistral"
	count(mistral_turns) > 0
	first := mistral_turns[0]
	first.role != "user"
	f := {"rule": "mistral-message-order", "msg": sprintf("the conversation starts with message %d, of role %q; after the system message it must start with the user's", [first.index, first.role]), "message_index": first.index}
}

deny contains f if {
	input.profile == "mistral"
	some i in numbers.range(1, count(mistral_turns) - 1)
	prev := mistral_turns[i - 1]
	m := mistral_turns[i]
	allowed := mistral_next[prev.role]
	not m.role in allowed
	f := {"rule": "mistral-message-order", "msg": sprintf("message %d (%s) follows message %d (%s); mistral_common takes %s there", [m.index, label(m.role), prev.index, label(prev.role), concat(" or ", sort(allowed))]), "message_index": m.index}
}

# METADATA
# title: mistral-tool-results
# description: >-
#   mistral_common (finetuning mode) counts results, not ids: the tool messages between an
#   assistant message that calls tools and the next assistant message are as many as its calls
#   ("Not the same number of function calls and responses"), and there are never more results
#   than calls ("More tool responses than tool calls"). Pairing by id is chatlint's own
#   (tool-result-missing, tool-result-orphan: warnings under this profile).
# custom:
#   id: mistral-tool-results
#   severity: error
#   profiles: [mistral]
#   formats: [chat]
#   refs:
#     - mistralai/mistral-common src/mistral_common/protocol/instruct/validator.py@039465db2bdc0486df36365c9bdb428188482a18 (_validate_tool_calls_followed_by_tool_messages)
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather?"}, {"role": "assistant", "tool_calls": [{"id": "a1B2c3D4e", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]}, {"role": "assistant", "content": "Sunny."}], "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Weather now.", "parameters": {"type": "object", "properties": {}}}}]}
#   fix: >-
#     Give every call its result, right after the assistant's message.
deny contains f if {
	input.profile == "mistral"
	some k, m in mistral_turns
	m.role == "assistant"
	next := min({j | some j, n in mistral_turns; j > k; n.role == "assistant"})
	results := count([1 | some j, n in mistral_turns; j > k; j < next; n.role == "tool"])
	results != count(m.tool_calls)
	f := {"rule": "mistral-tool-results", "msg": sprintf("assistant message %d makes %d tool calls and %d tool results follow before the next assistant message", [m.index, count(m.tool_calls), results]), "message_index": m.index}
}

deny contains f if {
	input.profile == "mistral"
	some k, m in mistral_turns
	m.role == "tool"
	not mistral_answered(k)
	f := {"rule": "mistral-tool-results", "msg": sprintf("tool message %d follows no assistant message that calls tools; more results than calls", [m.index]), "message_index": m.index}
}

# mistral_answered(k) holds when the turn k, a tool result, comes after an assistant turn with
# calls and no later assistant turn before it.
mistral_answered(k) if {
	prev := max({j | some j, n in mistral_turns; j < k; n.role == "assistant"})
	count(mistral_turns[prev].tool_calls) > 0
}

mistral_name_ok(name) if regex.match(`^[a-zA-Z0-9_-]{1,64}$`, name)

# METADATA
# title: mistral-function-name
# description: >-
#   mistral_common: a function's name — of a declared tool, a tool call, or a tool message's
#   name — matches ^[a-zA-Z0-9_-]{1,64}$.
# custom:
#   id: mistral-function-name
#   severity: error
#   profiles: [mistral]
#   formats: [chat]
#   refs:
#     - mistralai/mistral-common src/mistral_common/protocol/instruct/validator.py@039465db2bdc0486df36365c9bdb428188482a18 (_validate_function, _validate_function_call, _validate_tool_message)
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather?"}, {"role": "assistant", "content": "Sunny."}], "tools": [{"type": "function", "function": {"name": "get.weather", "description": "Weather now.", "parameters": {"type": "object", "properties": {}}}}]}
#   fix: >-
#     Use letters, digits, underscores and dashes only, at most 64 of them.
deny contains f if {
	input.profile == "mistral"
	some t in input.tools
	is_string(object.get(t.function, "name", null))
	not mistral_name_ok(t.name)
	f := {"rule": "mistral-function-name", "msg": sprintf("tool %d has the name %q; a function name is 1 to 64 letters, digits, underscores or dashes", [t.index, t.name])}
}

deny contains f if {
	input.profile == "mistral"
	some i in call_msgs
	m := input.messages[i]
	some c in m.tool_calls
	not mistral_name_ok(c.name)
	f := call_finding("mistral-function-name", m, c, sprintf("has the name %q; a function name is 1 to 64 letters, digits, underscores or dashes", [c.name]))
}

deny contains f if {
	input.profile == "mistral"
	some m in input.messages
	m.role == "tool"
	name := object.get(m.raw, "name", null)
	is_string(name)
	not mistral_name_ok(name)
	f := {"rule": "mistral-function-name", "msg": sprintf("tool message %d has the name %q; a function name is 1 to 64 letters, digits, underscores or dashes", [m.index, name]), "message_index": m.index}
}

# METADATA
# title: mistral-tool-definition
# description: >-
#   mistral-finetune: each declared tool has a function with a name, a description and
#   parameters, and the parameters are an object ("A function dict does not have a description
#   key"); a record has tools or available_tools, not both.
# custom:
#   id: mistral-tool-definition
#   severity: error
#   profiles: [mistral]
#   formats: [chat]
#   refs:
#     - mistralai/mistral-finetune finetune/data/tokenize.py@20704b220d6f08ce1213387f593282f4f60e3fa1 (_parse_available_tools, build_instruct_sample)
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather?"}, {"role": "assistant", "content": "Sunny."}], "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {}}}}]}
#   fix: >-
#     Give every tool a description (an empty string counts) and parameters ({} when it takes none).
deny contains f if {
	input.profile == "mistral"
	some t in input.tools
	problem := mistral_tool_problem(t.raw)
	f := {"rule": "mistral-tool-definition", "msg": sprintf("tool %d (%s) %s", [t.index, label(t.name), problem])}
}

deny contains f if {
	input.profile == "mistral"
	"tools" in object.keys(input.raw)
	"available_tools" in object.keys(input.raw)
	f := {"rule": "mistral-tool-definition", "msg": "the record has both tools and available_tools; mistral-finetune takes one"}
}

mistral_tool_problem(raw) := "has no function object" if {
	not is_object(object.get(raw, "function", null))
} else := sprintf("has a function without %s", [concat(" or ", missing)]) if {
	missing := [k | some k in ["name", "description", "parameters"]; not k in object.keys(raw.function)]
	count(missing) > 0
} else := sprintf("has parameters that are %s, not an object", [type_name(raw.function.parameters)]) if {
	not is_object(raw.function.parameters)
}

# METADATA
# title: mistral-tool-call-shape
# description: >-
#   mistral-finetune: each tool call has an id and a function with a name and arguments, and
#   the arguments are a string ("does not have a 'arguments' key of type str"). Whether the
#   string holds JSON, and whether it fits the tool's schema, it does not check: those are
#   chatlint's own checks here (warnings).
# custom:
#   id: mistral-tool-call-shape
#   severity: error
#   profiles: [mistral]
#   formats: [chat]
#   refs:
#     - mistralai/mistral-finetune finetune/data/tokenize.py@20704b220d6f08ce1213387f593282f4f60e3fa1 (_parse_tool_calls)
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather?"}, {"role": "assistant", "tool_calls": [{"id": "a1B2c3D4e", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Oslo"}}}]}, {"role": "tool", "tool_call_id": "a1B2c3D4e", "content": "3 °C"}, {"role": "assistant", "content": "3 °C."}]}
#   fix: >-
#     Give each call an id and a function {name, arguments}, the arguments as a JSON string.
deny contains f if {
	input.profile == "mistral"
	some i in input.lookup.tool_call_lists
	m := input.messages[i]
	some j, c in m.raw.tool_calls
	problem := mistral_call_problem(c)
	f := {"rule": "mistral-tool-call-shape", "msg": sprintf("tool call %d of message %d %s", [j, m.index, problem]), "message_index": m.index, "path": sprintf("%s/tool_calls/%d", [m.path, j])}
}

mistral_call_problem(c) := "is not an object" if {
	not is_object(c)
} else := sprintf("has no %s", [concat(" or ", missing)]) if {
	missing := [k | some k in ["id", "function"]; not k in object.keys(c)]
	count(missing) > 0
} else := sprintf("has a function without %s", [concat(" or ", missing)]) if {
	missing := [k | some k in ["name", "arguments"]; not k in object.keys(c.function)]
	count(missing) > 0
} else := sprintf("has arguments that are %s, not a string", [type_name(c.function.arguments)]) if {
	not is_string(c.function.arguments)
}
