package chatlint.contract

# The conversation-record contract, field by field. Each problem is one "path: what" text, in
# field order (conversation_id, user_id, timestamp, messages and their items, metadata); a record
# gets one finding that names them all, so fixing a line takes one round trip.
#
# Type words follow the record's JSON: "got null", "got number", "got array".

record := input.raw

has(obj, key) if _ = obj[key]

# A clean record is decided without building any problem list: the common case stays cheap.
clean_record if {
	is_string(record.conversation_id)
	is_string(record.user_id)
	chatlint.datetime_valid(record.timestamp)
	msgs := record.messages
	is_array(msgs)
	count([1 | some m in msgs; count(m) == 2; is_string(m.role); is_string(m.content)]) == count(msgs)
	metadata_ok
}

clean_message(m) if {
	count(m) == 2
	is_string(m.role)
	is_string(m.content)
}

metadata_ok if not has(record, "metadata")

metadata_ok if is_object(record.metadata)

string_problems(obj, key, path) := [sprintf("%s: Field required", [path])] if {
	not has(obj, key)
} else := [sprintf("%s: Input should be a valid string (got %s)", [path, type_name(obj[key])])] if {
	not is_string(obj[key])
} else := []

timestamp_problems := ["timestamp: Field required"] if {
	not has(record, "timestamp")
} else := [sprintf("timestamp: Input should be a valid datetime (%s)", [why])] if {
	why := chatlint.datetime_problem(record.timestamp)
	why != ""
} else := []

allowed_message_keys := {"role", "content"}

message_problems(i, m) := [sprintf("messages.%d: Input should be a valid dictionary (got %s)", [i, type_name(m)])] if {
	not is_object(m)
} else := array.concat(
	array.concat(
		string_problems(m, "role", sprintf("messages.%d.role", [i])),
		string_problems(m, "content", sprintf("messages.%d.content", [i])),
	),
	[sprintf("messages.%d.%s: Extra inputs are not permitted", [i, k]) |
		some k in sort([k | some k, _ in m; not allowed_message_keys[k]])
	],
)

messages_problems := ["messages: Field required"] if {
	not has(record, "messages")
} else := [sprintf("messages: Input should be a valid list (got %s)", [type_name(record.messages)])] if {
	not is_array(record.messages)
} else := [p |
	some i, m in record.messages
	not clean_message(m)
	some p in message_problems(i, m)
]

metadata_problems := [] if {
	metadata_ok
} else := [sprintf("metadata: Input should be a valid dictionary (got %s)", [type_name(record.metadata)])]

problems := array.concat(
	array.concat(
		array.concat(
			string_problems(record, "conversation_id", "conversation_id"),
			string_problems(record, "user_id", "user_id"),
		),
		array.concat(timestamp_problems, messages_problems),
	),
	metadata_problems,
)

# METADATA
# title: contract-schema
# description: >-
#   A contract record does not match the conversation-record contract: conversation_id and
#   user_id must be strings (empty allowed, numbers are not converted), timestamp a date-time
#   (ISO 8601 with Z, an offset or no zone, T/t/space separator, date-only or minutes-only,
#   fractional seconds; or a Unix time as a number or numeric string), messages a list of
#   objects with string role and string content and no other keys, and metadata, when present,
#   an object. Other top-level keys are allowed. One finding per record names every failing
#   field by its path (messages.0.content). validate-input reports it as
#   schema_validation_failed.
# custom:
#   id: contract-schema
#   severity: error
#   formats: [contract]
#   example: |-
#     {"conversation_id": "conv_1", "user_id": 42, "timestamp": "2026-02-30T12:00:00Z", "messages": [{"role": "user", "content": "Hi", "name": "ann"}]}
#   fix: >-
#     Map the source's fields onto the contract: the conversation key to `conversation_id`, the
#     user key (as a string) to `user_id`, the creation time to `timestamp`, each message to
#     `{"role", "content"}` (move anything else into `metadata`).
deny contains f if {
	input.format == "contract"
	not clean_record
	ps := problems
	count(ps) > 0
	f := {
		"rule": "contract-schema",
		"msg": sprintf("%d validation error%s: %s", [count(ps), plural(count(ps)), concat("; ", ps)]),
	}
}

plural(n) := "" if n == 1

else := "s"
