package chatlint.contract

# The dataset rule of the contract: evaluated once per file, after its records, over the file's
# dataset document (docs/document.md#the-dataset-document). input.key_duplicates lists the
# records that repeat the conversation_id of an earlier one ({line, first_line, member, value});
# validate-input folds only the records that meet the contract, as the contract validator does,
# so a line that failed the contract does not reserve its id.

# METADATA
# title: contract-duplicate-id
# description: >-
#   A contract record repeats the conversation_id of an earlier record of the file. The contract
#   validator keys a dataset by conversation_id: each id names one conversation, and a later
#   record with the same id is rejected as duplicate_conversation_id, naming the line of the
#   first. Reported on every later record, which validate-input does not count as a
#   conversation.
# custom:
#   id: contract-duplicate-id
#   severity: error
#   formats: [contract]
#   example: |-
#     {"conversation_id": "conv_1", "user_id": "u1", "timestamp": "2026-02-10T12:00:00Z", "messages": [{"role": "user", "content": "Hi"}]}
#     {"conversation_id": "conv_1", "user_id": "u2", "timestamp": "2026-02-11T08:00:00Z", "messages": [{"role": "user", "content": "Hello"}]}
#   fix: >-
#     Give each conversation its own conversation_id, or merge the records of one conversation
#     into one record before export.
dataset_deny contains f if {
	input.format == "contract"
	some d in input.key_duplicates
	f := {
		"rule": "contract-duplicate-id",
		"msg": sprintf("Duplicate %s '%s' in dataset (first seen on line %d).", [d.member, d.value, d.first_line]),
		"line": d.line,
	}
}
