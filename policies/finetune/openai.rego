package chatlint.finetune

# The openai profile: what OpenAI's fine-tuning upload accepts, per example. Chat SFT records
# ({"messages", "tools", "functions", "parallel_tool_calls"}) and preference (DPO) records
# ({"input": {"messages", "tools"}, "preferred_output", "non_preferred_output"}).

# record_kind is the kind of a chat record: chat (messages) or preference (DPO).
record_kind := "preference" if {
	not input.raw.messages
	is_object(input.raw.input)
} else := "chat"

# message_keys are the keys OpenAI's chat fine-tuning format knows on a message.
message_keys := {"role", "content", "name", "weight", "tool_calls", "tool_call_id", "function_call", "refusal"}

# METADATA
# title: openai-message-keys
# description: >-
#   OpenAI: a message has a key the chat fine-tuning format does not know (the upload rejects the
#   file). Known: role, content, name, weight, tool_calls, tool_call_id, function_call, refusal.
# custom:
#   id: openai-message-keys
#   severity: error
#   profiles: [openai]
#   formats: [chat, preference]
#   refs:
#     - openai/openai-cookbook examples/Chat_finetuning_data_prep.ipynb (message_unrecognized_key)
#   example: |-
#     {"messages": [{"role": "user", "content": "Hi", "timestamp": 1700000000}, {"role": "assistant", "content": "Hello!"}]}
#   fix: >-
#     Remove the key (keep metadata outside the messages, or in a separate file).
deny contains f if {
	input.profile == "openai"
	count(input.lookup.message_keys - message_keys) > 0 # the messages' keys, all of them: most documents stop here
	some m in input.messages
	is_object(m.raw)
	extra := {k | some k, _ in m.raw; not message_keys[k]}
	count(extra) > 0
	f := {
		"rule": "openai-message-keys",
		"msg": sprintf("message %d has keys OpenAI fine-tuning does not know: %s", [m.index, concat(", ", sort(extra))]),
		"message_index": m.index,
	}
}

# content_problem(m) says what is wrong with the content of a raw message, if anything.
content_problem(m) := "has no content" if {
	not has_calls(m)
	object.get(m, "content", null) == null
} else := sprintf("has content that is %s, not a string or a list of parts", [type_name(m.content)]) if {
	not is_null(object.get(m, "content", null))
	not is_string(m.content)
	not is_array(m.content)
} else := sprintf("has a content part %d that is not a text part ({\"type\": \"text\", \"text\": \"...\"}) or an image_url part", [i]) if {
	is_array(m.content)
	i := min({k | some k, p in m.content; not good_part(p)})
}

has_calls(m) if count(object.get(m, "tool_calls", [])) > 0

has_calls(m) if is_object(object.get(m, "function_call", null))

good_part(p) if {
	p.type == "text"
	is_string(p.text)
}

good_part(p) if {
	p.type == "image_url"
	is_object(p.image_url)
}

# METADATA
# title: openai-content-type
# description: >-
#   OpenAI: a message's content is a string, or a list of text parts (image_url parts for vision
#   fine-tuning); null or absent only on an assistant message that calls tools or a function.
# custom:
#   id: openai-content-type
#   severity: error
#   profiles: [openai]
#   formats: [chat, preference]
#   refs:
#     - openai/openai-cookbook examples/Chat_finetuning_data_prep.ipynb (missing_content)
#     - https://platform.openai.com/docs/guides/vision-fine-tuning
#   example: |-
#     {"messages": [{"role": "user", "content": {"text": "Hi"}}, {"role": "assistant", "content": "Hello!"}]}
#   fix: >-
#     Give the content as a string (or a list of `{"type": "text", "text": ...}` parts).
deny contains f if {
	input.profile == "openai"
	some i in input.lookup.content_not_string # content_problem holds of no string content
	m := input.messages[i]
	is_object(m.raw)
	problem := content_problem(m.raw)
	f := {
		"rule": "openai-content-type",
		"msg": sprintf("message %d (%s) %s", [m.index, label(m.role), problem]),
		"message_index": m.index,
	}
}

# METADATA
# title: openai-assistant-missing
# description: >-
#   OpenAI: a chat example has no assistant message, so there is nothing to train on (the upload
#   reports "examples missing assistant messages").
# custom:
#   id: openai-assistant-missing
#   severity: error
#   profiles: [openai]
#   formats: [chat]
#   refs:
#     - openai/openai-cookbook examples/Chat_finetuning_data_prep.ipynb (example_missing_assistant_message)
#   example: |-
#     {"messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]}
#   fix: >-
#     Add the assistant's reply the model should learn, or drop the example.
deny contains f if {
	input.profile == "openai"
	record_kind == "chat"
	count(input.messages) > 0
	count(input.lookup.assistant) == 0
	f := {"rule": "openai-assistant-missing", "msg": sprintf("the example has no assistant message (%d messages)", [count(input.messages)])}
}

# METADATA
# title: openai-weight
# description: >-
#   OpenAI: `weight` (whether the model trains on a message) appears only on assistant messages
#   and is 0 or 1.
# custom:
#   id: openai-weight
#   severity: error
#   profiles: [openai]
#   formats: [chat, preference]
#   refs:
#     - https://platform.openai.com/docs/guides/supervised-fine-tuning (weight on assistant messages, 0 or 1)
#   example: |-
#     {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!", "weight": 7}]}
#   fix: >-
#     Use `"weight": 0` to leave an assistant message out of training, 1 (or no weight) to train on it.
deny contains f if {
	input.profile == "openai"
	"weight" in input.lookup.message_keys
	some m in input.messages
	is_object(m.raw)
	"weight" in object.keys(m.raw)
	problem := weight_problem(m)
	f := {
		"rule": "openai-weight",
		"msg": sprintf("message %d (%s) %s", [m.index, label(m.role), problem]),
		"message_index": m.index,
		"path": concat("", [m.path, "/weight"]),
	}
}

weight_problem(m) := "has a weight, which only assistant messages may have" if {
	m.role != "assistant"
} else := sprintf("has weight %v; it must be 0 or 1", [m.raw.weight]) if {
	not m.raw.weight in {0, 1}
}

# METADATA
# title: tool-arguments-not-string
# description: >-
#   OpenAI: a tool call's function.arguments is not a string. The platform wants the arguments as
#   the JSON text of an object ("{\"city\": \"Paris\"}"); an object given as is is rejected.
# custom:
#   id: tool-arguments-not-string
#   severity: error
#   profiles: [openai]
#   formats: [chat, preference]
#   refs:
#     - https://platform.openai.com/docs/guides/supervised-fine-tuning (function calling examples, arguments a JSON string)
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]}], "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]}
#   fix: >-
#     Encode the arguments as a JSON string.
deny contains f if {
	input.profile == "openai"
	some i in input.lookup.tool_call_lists
	m := input.messages[i]
	some j, e in m.raw.tool_calls
	is_object(e)
	a := object.get(object.get(e, "function", {}), "arguments", null)
	not is_string(a)
	f := {
		"rule": "tool-arguments-not-string",
		"msg": sprintf("tool call %d of message %d has function.arguments that is %s, not a JSON string", [j, m.index, type_name(a)]),
		"message_index": m.index,
		"path": sprintf("%s/tool_calls/%d/function", [m.path, j]),
	}
}

# METADATA
# title: openai-preference-shape
# description: >-
#   The preference (DPO) format of OpenAI, which Together takes as is: input is an object whose
#   messages are a non-empty list that does not end on the assistant's message, and
#   preferred_output and non_preferred_output are each a list of exactly one assistant message
#   with content (a string, or a list of parts).
# custom:
#   id: openai-preference-shape
#   severity: error
#   profiles: [openai, together]
#   formats: [chat, preference]
#   refs:
#     - https://platform.openai.com/docs/guides/direct-preference-optimization
#     - togethercomputer/together-python src/together/utils/files.py@0890d35ff2b79b91bba7736d908a7ab58b806c10 (validate_preference_openai)
#   example: |-
#     {"input": {"messages": [{"role": "user", "content": "Hi"}]}, "preferred_output": [{"role": "assistant", "content": "Hello!"}], "non_preferred_output": {"role": "assistant", "content": "Go away."}}
#   fix: >-
#     Give each output as a list holding the one assistant message, and end the input on the
#     user's message the outputs answer.
deny contains f if {
	input.profile in {"openai", "together"}
	record_kind == "preference"
	some problem in preference_problems
	f := {"rule": "openai-preference-shape", "msg": sprintf("the preference record %s", [problem])}
}

preference_problems contains sprintf("has input that is %s, not an object", [type_name(input.raw.input)]) if {
	not is_object(input.raw.input)
}

preference_problems contains "has no input.messages list" if {
	is_object(input.raw.input)
	not is_array(object.get(input.raw.input, "messages", null))
}

preference_problems contains "has an empty input.messages" if {
	is_array(object.get(object.get(input.raw, "input", {}), "messages", null))
	count(input.messages) == 0
}

preference_problems contains "has an input whose last message is the assistant's; the outputs are the assistant's answer to it" if {
	count(input.messages) > 0
	input.messages[count(input.messages) - 1].role == "assistant"
}

preference_problems contains sprintf("has no %s", [k]) if {
	some k in ["preferred_output", "non_preferred_output"]
	not k in object.keys(input.raw)
}

preference_problems contains sprintf("has %s that is not a list of exactly one message", [k]) if {
	some k in ["preferred_output", "non_preferred_output"]
	k in object.keys(input.raw)
	not one_message(input.raw[k])
}

preference_problems contains sprintf("has %s whose message is not the assistant's (role %v)", [k, object.get(input.raw[k][0], "role", null)]) if {
	some k in ["preferred_output", "non_preferred_output"]
	one_message(input.raw[k])
	object.get(input.raw[k][0], "role", null) != "assistant"
}

preference_problems contains sprintf("has %s whose message has no content", [k]) if {
	some k in ["preferred_output", "non_preferred_output"]
	one_message(input.raw[k])
	out := input.raw[k][0]
	object.get(out, "content", null) == null
	not has_calls(out)
}

preference_problems contains sprintf("has %s whose content is %s, not a string or a list of parts", [k, type_name(out.content)]) if {
	some k in ["preferred_output", "non_preferred_output"]
	one_message(input.raw[k])
	out := input.raw[k][0]
	not is_null(object.get(out, "content", null))
	not is_string(out.content)
	not is_array(out.content)
}

one_message(x) if {
	is_array(x)
	count(x) == 1
	is_object(x[0])
}

# METADATA
# title: example-too-long
# description: >-
#   The example has more tokens than the model trains on per example (its training context, from
#   the pack's model table: 65,536 for gpt-4o-mini-2024-07-18, 16,385 for gpt-3.5-turbo-0125);
#   OpenAI truncates such examples (its guide and the cookbook's data-preparation notebook say
#   so, and the job runs), so a warning. Tokens are counted as the OpenAI cookbook counts them
#   (docs/fine-tuning.md#tokens). The model is --model, or the table's default.
# custom:
#   id: example-too-long
#   severity: warning
#   profiles: [openai]
#   formats: [chat, preference]
#   refs:
#     - https://platform.openai.com/docs/guides/supervised-fine-tuning (examples longer than the limit are truncated)
#     - openai/openai-cookbook examples/Chat_finetuning_data_prep.ipynb (token limit check)
#   fix: >-
#     Shorten or split the conversation, or drop the example.
warn contains f if {
	input.profile == "openai"
	m := input.model
	n := chatlint.example_tokens(input, m.encoding)
	n > m.limit
	f := {"rule": "example-too-long", "msg": sprintf("the example has about %d tokens; %s trains on at most %d per example", [n, m.name, m.limit])}
}

# METADATA
# title: openai-function-name
# description: >-
#   OpenAI: a function's name (in tools, the legacy functions list, a tool call or a legacy
#   function_call) matches ^[a-zA-Z0-9_-]{1,64}$, as the Chat Completions API requires of a
#   function name.
# custom:
#   id: openai-function-name
#   severity: error
#   profiles: [openai]
#   formats: [chat, preference]
#   refs:
#     - https://platform.openai.com/docs/api-reference/chat/create (tools.function.name)
#     - https://platform.openai.com/docs/guides/supervised-fine-tuning
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather?"}, {"role": "assistant", "content": "Sunny."}], "tools": [{"type": "function", "function": {"name": "get weather", "parameters": {"type": "object", "properties": {}}}}]}
#   fix: >-
#     Use letters, digits, underscores and dashes only, at most 64 of them.
deny contains f if {
	input.profile == "openai"
	some [where, name] in openai_names
	not regex.match(`^[a-zA-Z0-9_-]{1,64}$`, name)
	f := {"rule": "openai-function-name", "msg": sprintf("%s has the name %q; a function name is 1 to 64 letters, digits, underscores or dashes", [where, name])}
}

# openai_names are the names that break the pattern, each with where it is: only those need
# their place spelled out for a message, so the test comes before the sprintf.
openai_names contains [sprintf("tool %d", [t.index]), t.name] if {
	some t in input.tools
	is_string(object.get(t.function, "name", null))
	not openai_name_ok(t.name)
}

openai_names contains [sprintf("function %d of functions", [i]), fn.name] if {
	some i, fn in object.get(input.raw, "functions", [])
	is_string(object.get(fn, "name", null))
	not openai_name_ok(fn.name)
}

openai_names contains [sprintf("tool call %d of message %d", [c.index, m.index]), c.name] if {
	some i in call_msgs
	m := input.messages[i]
	some c in m.tool_calls
	c.name != ""
	not openai_name_ok(c.name)
}

openai_names contains [sprintf("the function_call of message %d", [m.index]), m.raw.function_call.name] if {
	"function_call" in input.lookup.message_keys
	some m in input.messages
	is_string(object.get(object.get(m.raw, "function_call", {}), "name", null))
	not openai_name_ok(m.raw.function_call.name)
}

openai_name_ok(name) if regex.match(`^[a-zA-Z0-9_-]{1,64}$`, name)
