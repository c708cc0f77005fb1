package chatlint.finetune

# The mistral, together and bedrock profiles: what mistral-finetune's data validator, Together's
# `together files check` and Amazon Bedrock's Claude fine-tuning format require of an example.

# METADATA
# title: mistral-last-message
# description: >-
#   mistral-finetune: the last message of an instruct example is the assistant's (its validator
#   rejects an example that ends on another role), the message the model learns to produce.
# custom:
#   id: mistral-last-message
#   severity: error
#   profiles: [mistral]
#   formats: [chat]
#   refs:
#     - mistralai/mistral-common src/mistral_common/protocol/instruct/validator.py@039465db2bdc0486df36365c9bdb428188482a18 (_validate_last_message, finetuning mode)
#   example: |-
#     {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"}, {"role": "user", "content": "Bye"}]}
#   fix: >-
#     End the example on the assistant's reply, or drop the trailing messages.
deny contains f if {
	input.profile == "mistral"
	count(input.messages) > 0
	last := input.messages[count(input.messages) - 1]
	last.role != "assistant"
	f := {
		"rule": "mistral-last-message",
		"msg": sprintf("the example ends on message %d, of role %q; it must end on the assistant's", [last.index, last.role]),
		"message_index": last.index,
	}
}

# METADATA
# title: mistral-tool-call-id
# description: >-
#   mistral-finetune: a tool call id, and the tool_call_id of a tool message, is exactly 9
#   alphanumeric characters ([a-zA-Z0-9]{9}), as Mistral's tokenizer encodes them.
# custom:
#   id: mistral-tool-call-id
#   severity: error
#   profiles: [mistral]
#   formats: [chat]
#   refs:
#     - mistralai/mistral-common src/mistral_common/protocol/instruct/validator.py@039465db2bdc0486df36365c9bdb428188482a18 (MistralRequestValidatorV3._validate_tool_call, _validate_tool_message)
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather?"}, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "18 C"}, {"role": "assistant", "content": "18 °C."}], "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {}}}}]}
#   fix: >-
#     Give each call a 9-character alphanumeric id (e.g. "a1B2c3D4e") and its result the same.
deny contains f if {
	input.profile == "mistral"
	some i in call_msgs
	m := input.messages[i]
	some c in m.tool_calls
	not mistral_id(c.id)
	not null_id_last(m, c)
	f := call_finding("mistral-tool-call-id", m, c, sprintf("has id %q; mistral-finetune wants 9 alphanumeric characters", [c.id]))
}

# null_id_last holds for a call of the example's last message whose id is "null": mistral_common
# takes it there (the last call's id is not trained on), and only there.
null_id_last(m, c) if {
	c.id == "null"
	m.index == count(input.messages) - 1
}

deny contains f if {
	input.profile == "mistral"
	some i in input.lookup.tool
	m := input.messages[i]
	not mistral_id(object.get(m, "tool_call_id", ""))
	f := {
		"rule": "mistral-tool-call-id",
		"msg": sprintf("tool message %d has tool_call_id %q; mistral-finetune wants 9 alphanumeric characters", [m.index, object.get(m, "tool_call_id", "")]),
		"message_index": m.index,
	}
}

mistral_id(id) if regex.match(`^[a-zA-Z0-9]{9}$`, id)

# METADATA
# title: message-content-string
# description: >-
#   Bedrock's Claude format: every message's content is a string (not a list of parts, not
#   null).
# custom:
#   id: message-content-string
#   severity: error
#   profiles: [bedrock]
#   refs:
#     - aws-samples/amazon-bedrock-samples bedrock-fine-tuning/claude-haiku/DataValidation/data_validation.py (Message.content str)
#     - https://docs.aws.amazon.com/bedrock/latest/userguide/model-customization-prepare.html
#   formats: [chat]
#   example: |-
#     {"messages": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}, {"role": "assistant", "content": "Hello!"}]}
#   fix: >-
#     Give the content as one string.
deny contains f if {
	input.profile == "bedrock"
	input.format == "chat"
	some m in input.messages
	is_object(m.raw)
	not is_string(object.get(m.raw, "content", null))
	f := {
		"rule": "message-content-string",
		"msg": sprintf("message %d (%s) has content that is %s, not a string", [m.index, label(m.role), type_name(object.get(m.raw, "content", null))]),
		"message_index": m.index,
	}
}

# turn_roles are the roles of the conversation's turns: every message but a leading system one.
turn_roles := [m.role | some m in input.messages; not leading_system(m)]

leading_system(m) if {
	m.index == 0
	m.role == "system"
}

# METADATA
# title: turns-alternate
# description: >-
#   Together: no two messages in a row have the same role ("Invalid role turns", checked on
#   every message; consecutive tool results of parallel calls excepted). Bedrock's Claude
#   format: messages alternate user and assistant, starting with the user's and ending with the
#   assistant's (the system prompt is the top-level string); records with tool messages are
#   left to role-unknown.
# custom:
#   id: turns-alternate
#   severity: error
#   profiles: [together, bedrock]
#   formats: [chat, preference]
#   refs:
#     - togethercomputer/together-python src/together/utils/files.py@0890d35ff2b79b91bba7736d908a7ab58b806c10 (_check_message_role)
#     - aws-samples/amazon-bedrock-samples bedrock-fine-tuning/claude-haiku/DataValidation/data_validation.py (check_message_structure)
#     - https://docs.aws.amazon.com/bedrock/latest/userguide/model-customization-prepare.html
#   example: |-
#     {"messages": [{"role": "user", "content": "Hi"}, {"role": "user", "content": "Anyone?"}, {"role": "assistant", "content": "Hello!"}]}
#   fix: >-
#     Merge consecutive messages of one role (Bedrock: and start with the user's).
deny contains f if {
	input.profile == "bedrock"
	input.format == "chat"
	not "tool" in input.lookup.roles
	some problem in turn_problems
	f := {"rule": "turns-alternate", "msg": problem}
}

deny contains f if {
	input.profile == "together"
	some i in numbers.range(1, count(input.messages) - 1)
	r := input.messages[i].role
	r == input.messages[i - 1].role
	r != "tool"
	f := {
		"rule": "turns-alternate",
		"msg": sprintf("messages %d and %d are both %s; Together wants the roles to alternate", [i - 1, i, label(r)]),
		"message_index": i,
	}
}

turn_problems contains sprintf("the conversation starts with a message of role %q; it must start with the user's", [turn_roles[0]]) if {
	count(turn_roles) > 0
	turn_roles[0] != "user"
}

turn_problems contains sprintf("messages %d and %d are both %s; user and assistant must alternate", [(i - 1) + offset, i + offset, label(turn_roles[i])]) if {
	some i in numbers.range(1, count(turn_roles) - 1)
	turn_roles[i] == turn_roles[i - 1]
}

turn_problems contains sprintf("the conversation ends on a message of role %q; Bedrock wants it to end on the assistant's", [turn_roles[count(turn_roles) - 1]]) if {
	count(turn_roles) > 0
	turn_roles[count(turn_roles) - 1] != "assistant"
}

offset := 1 if leading_system(input.messages[0])

else := 0

# METADATA
# title: bedrock-system
# description: >-
#   Bedrock's Claude format: the optional top-level "system" is a string (the system prompt has
#   no message of its own).
# custom:
#   id: bedrock-system
#   severity: error
#   profiles: [bedrock]
#   refs:
#     - aws-samples/amazon-bedrock-samples bedrock-fine-tuning/claude-haiku/DataValidation/data_validation.py (DataEntry.system)
#   formats: [chat]
#   example: |-
#     {"system": ["Be brief."], "messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"}]}
#   fix: >-
#     Give the system prompt as one string.
deny contains f if {
	input.profile == "bedrock"
	"system" in object.keys(input.raw)
	not is_string(input.raw.system)
	f := {"rule": "bedrock-system", "msg": sprintf("the record's system is %s, not a string", [type_name(input.raw.system)]), "path": "/system"}
}
