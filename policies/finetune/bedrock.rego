package chatlint.finetune

# The bedrock profile: Claude fine-tuning records on Amazon Bedrock ({"system", "messages"}), as
# Anthropic's guide to fine-tuning Claude on Bedrock and AWS's validation script
# (aws-samples/amazon-bedrock-samples, bedrock-fine-tuning/claude-haiku/DataValidation) state
# them, and Bedrock conversation records (schemaVersion bedrock-conversation-2024, Amazon Nova)
# as the Nova user guide states them.

bedrock_claude_keys := {"system", "messages"}

bedrock_message_keys := {"role", "content"}

# METADATA
# title: bedrock-keys
# description: >-
#   Claude fine-tuning on Bedrock: a record has only system and messages, and a message only
#   role and content ("No extraneous keys are allowed"), so a weight, a name or an id is refused.
#   AWS's validation script does not check it (its models ignore unknown keys); chatlint follows
#   the guide.
# custom:
#   id: bedrock-keys
#   severity: error
#   profiles: [bedrock]
#   formats: [chat]
#   refs:
#     - https://aws.amazon.com/blogs/machine-learning/fine-tune-anthropics-claude-3-haiku-in-amazon-bedrock-to-boost-model-accuracy-and-quality/ (data format, no extraneous keys)
#     - https://docs.aws.amazon.com/bedrock/latest/userguide/model-customization-prepare.html
#   example: |-
#     {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!", "weight": 1}]}
#   fix: >-
#     Remove the other keys (keep metadata in a separate file).
deny contains f if {
	input.profile == "bedrock"
	is_object(input.raw)
	extra := {k | some k, _ in input.raw; not k in bedrock_claude_keys}
	count(extra) > 0
	f := {"rule": "bedrock-keys", "msg": sprintf("the record has keys Claude fine-tuning on Bedrock does not take: %s (only system and messages)", [concat(", ", sort(extra))])}
}

deny contains f if {
	input.profile == "bedrock"
	some i, m in object.get(input.raw, "messages", [])
	is_object(m)
	extra := {k | some k, _ in m; not k in bedrock_message_keys}
	count(extra) > 0
	f := {"rule": "bedrock-keys", "msg": sprintf("message %d has keys Claude fine-tuning on Bedrock does not take: %s (only role and content)", [i, concat(", ", sort(extra))]), "path": sprintf("/messages/%d", [i])}
}

# METADATA
# title: bedrock-record-size
# description: >-
#   Claude fine-tuning on Bedrock: a record fits in 32,000 tokens, estimated as AWS's validation
#   script estimates them: the characters of the system prompt and of every message's content,
#   divided by 3 (rounded down).
# custom:
#   id: bedrock-record-size
#   severity: error
#   profiles: [bedrock]
#   formats: [chat]
#   refs:
#     - aws-samples/amazon-bedrock-samples bedrock-fine-tuning/claude-haiku/DataValidation/data_validation.py (count_tokens, MAX_TOKENS = 32000, CHARS_PER_TOKEN = 3)
#   fix: >-
#     Shorten the conversation or split it into several records.
deny contains f if {
	input.profile == "bedrock"
	chars := bedrock_chars
	tokens := floor(chars / 3)
	tokens > 32000
	f := {"rule": "bedrock-record-size", "msg": sprintf("the record has about %d tokens (%d characters / 3); Claude fine-tuning on Bedrock takes at most 32000", [tokens, chars])}
}

bedrock_texts contains ["system", input.raw.system] if is_string(input.raw.system)

bedrock_texts contains [i, m.content] if {
	some i, m in object.get(input.raw, "messages", [])
	is_string(object.get(m, "content", null))
}

bedrock_chars := sum([count(s) | some [_, s] in bedrock_texts])

# Bedrock conversation records (Amazon Nova).

nova_ref := "https://docs.aws.amazon.com/nova/latest/nova2-userguide/nova-data-prep-sft-2.html"

nova_keys := {"schemaVersion", "system", "messages", "toolConfig"}

# nova_blocks are the content blocks of a turn, and the roles that may hold each.
nova_blocks := {
	"text": {"user", "assistant"},
	"image": {"user"},
	"video": {"user"},
	"document": {"user"},
	"toolResult": {"user"},
	"toolUse": {"assistant"},
	"reasoningContent": {"assistant"},
}

# METADATA
# title: nova-record
# description: >-
#   Bedrock conversation records (Amazon Nova): schemaVersion is "bedrock-conversation-2024";
#   the record has no key besides schemaVersion, system, messages and toolConfig, a message none
#   besides role and content; system, when given, is a list of {"text": string} blocks.
# custom:
#   id: nova-record
#   severity: error
#   profiles: [bedrock]
#   formats: [bedrock-conversation]
#   refs:
#     - https://docs.aws.amazon.com/nova/latest/nova2-userguide/nova-data-prep-sft-2.html
#     - https://docs.aws.amazon.com/bedrock/latest/userguide/nova-2-sft-data-prep.html
#   example: |-
#     {"schemaVersion": "bedrock-conversation-2023", "system": "Be brief.", "messages": [{"role": "user", "content": [{"text": "Hi"}]}, {"role": "assistant", "content": [{"text": "Hello!"}]}]}
#   fix: >-
#     Write schemaVersion "bedrock-conversation-2024", the system prompt as [{"text": "..."}], and
#     keep other data out of the record.
deny contains f if {
	input.profile == "bedrock"
	input.format == "bedrock-conversation"
	some [problem, path] in nova_record_problems
	f := {"rule": "nova-record", "msg": sprintf("the record %s", [problem]), "path": path}
}

nova_record_problems contains [sprintf("has schemaVersion %s; want \"bedrock-conversation-2024\"", [json.marshal(input.raw.schemaVersion)]), "/schemaVersion"] if {
	input.raw.schemaVersion != "bedrock-conversation-2024"
}

nova_record_problems contains [sprintf("has keys a Bedrock conversation record does not take: %s", [concat(", ", sort(extra))]), ""] if {
	extra := {k | some k, _ in input.raw; not k in nova_keys}
	count(extra) > 0
}

nova_record_problems contains [sprintf("has message %d with keys a Bedrock conversation message does not take: %s", [i, concat(", ", sort(extra))]), sprintf("/messages/%d", [i])] if {
	some i, m in input.raw.messages
	is_object(m)
	extra := {k | some k, _ in m; not k in {"role", "content"}}
	count(extra) > 0
}

nova_record_problems contains [sprintf("has a system that is %s, not a list of {\"text\": ...} blocks", [type_name(input.raw.system)]), "/system"] if {
	"system" in object.keys(input.raw)
	not nova_system_ok(input.raw.system)
}

nova_system_ok(s) if {
	is_array(s)
	every b in s {
		is_object(b)
		object.keys(b) == {"text"}
		is_string(b.text)
	}
}

# METADATA
# title: nova-content
# description: >-
#   Bedrock conversation records (Amazon Nova): a message's content is a non-empty list of
#   blocks, each an object with one member naming its kind — text (a string), image, video,
#   document and toolResult in user turns, toolUse and reasoningContent in assistant turns.
# custom:
#   id: nova-content
#   severity: error
#   profiles: [bedrock]
#   formats: [bedrock-conversation]
#   refs:
#     - https://docs.aws.amazon.com/nova/latest/nova2-userguide/nova-data-prep-sft-2.html
#     - https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ContentBlock.html
#   example: |-
#     {"schemaVersion": "bedrock-conversation-2024", "messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": [{"type": "text", "text": "Hello!"}]}]}
#   fix: >-
#     Write content as a list of blocks such as [{"text": "..."}].
deny contains f if {
	input.profile == "bedrock"
	input.format == "bedrock-conversation"
	some i, m in input.raw.messages
	is_object(m)
	some problem in nova_content_problems(m)
	f := {"rule": "nova-content", "msg": sprintf("message %d (%s) %s", [i, label(object.get(m, "role", "")), problem]), "path": sprintf("/messages/%d/content", [i])}
}

nova_content_problems(m) := {sprintf("has content that is %s, not a non-empty list of blocks", [type_name(object.get(m, "content", null))])} if {
	not nova_nonempty_list(object.get(m, "content", null))
} else := {p | some j, b in m.content; p := nova_block_problem(j, b, object.get(m, "role", ""))}

nova_nonempty_list(x) if {
	is_array(x)
	count(x) > 0
}

nova_block_problem(j, b, role) := sprintf("has block %d that is not an object with one member naming its kind", [j]) if {
	not is_object(b)
} else := sprintf("has block %d with members %s; a block has exactly one of %s", [j, concat(", ", sort(object.keys(b))), concat(", ", sort(object.keys(nova_blocks)))]) if {
	count(object.keys(b)) != 1
} else := sprintf("has block %d of kind %q, which Bedrock conversation records do not take", [j, k]) if {
	some k, _ in b
	not nova_blocks[k]
} else := sprintf("has a %s block (%d) in a %s turn; it belongs in a %s turn", [k, j, role, concat(" or ", sort(nova_blocks[k]))]) if {
	some k, _ in b
	not role in nova_blocks[k]
} else := sprintf("has text block %d whose text is %s, not a string", [j, type_name(b.text)]) if {
	"text" in object.keys(b)
	not is_string(b.text)
}

# METADATA
# title: nova-turns
# description: >-
#   Bedrock conversation records (Amazon Nova): messages are user and assistant turns that
#   alternate, the first the user's and the last the assistant's ("The first turn must be user,
#   the last must be assistant, and turns must alternate").
# custom:
#   id: nova-turns
#   severity: error
#   profiles: [bedrock]
#   formats: [bedrock-conversation]
#   refs:
#     - https://docs.aws.amazon.com/nova/latest/nova2-userguide/nova-data-prep-sft-2.html
#   example: |-
#     {"schemaVersion": "bedrock-conversation-2024", "messages": [{"role": "user", "content": [{"text": "Hi"}]}, {"role": "user", "content": [{"text": "Anyone?"}]}]}
#   fix: >-
#     Merge consecutive turns of one role; start with the user's, end with the assistant's.
deny contains f if {
	input.profile == "bedrock"
	input.format == "bedrock-conversation"
	some problem in nova_turn_problems
	f := {"rule": "nova-turns", "msg": problem}
}

nova_roles := [object.get(m, "role", null) | some m in input.raw.messages]

nova_turn_problems contains sprintf("message %d has role %s; a turn is the user's or the assistant's", [i, json.marshal(r)]) if {
	some i, r in nova_roles
	not r in {"user", "assistant"}
}

nova_turn_problems contains "the record has no messages" if count(nova_roles) == 0

nova_turn_problems contains sprintf("the conversation starts with a turn of role %s; it must start with the user's", [json.marshal(nova_roles[0])]) if {
	count(nova_roles) > 0
	nova_roles[0] != "user"
}

nova_turn_problems contains sprintf("the conversation ends on a turn of role %s; it must end on the assistant's", [json.marshal(r)]) if {
	count(nova_roles) > 0
	r := nova_roles[count(nova_roles) - 1]
	r != "assistant"
}

nova_turn_problems contains sprintf("messages %d and %d are both %s turns; turns alternate", [i - 1, i, r]) if {
	some i in numbers.range(1, count(nova_roles) - 1)
	r := nova_roles[i]
	r == nova_roles[i - 1]
	r in {"user", "assistant"}
}
