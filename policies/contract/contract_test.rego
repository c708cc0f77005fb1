package chatlint.contract_test

import data.chatlint.contract

doc(raw) := {"format": "contract", "file": "t.jsonl", "line": 1, "id": "c", "mode": "structured", "messages": [], "tools": [], "entries": [], "raw": raw}

good := {
	"conversation_id": "conv_1",
	"user_id": "user_1",
	"timestamp": "2026-02-10T12:34:56Z",
	"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}],
	"metadata": {"source": "postgres"},
}

msgs(raw) := {f.msg | some f in contract.deny with input as doc(raw)}

test_clean_record_passes if {
	count(contract.deny) == 0 with input as doc(good)
}

test_empty_strings_and_empty_messages_pass if {
	count(contract.deny) == 0 with input as doc({"conversation_id": "", "user_id": "", "timestamp": 0, "messages": []})
}

test_other_top_level_keys_allowed if {
	count(contract.deny) == 0 with input as doc(object.union(good, {"schema_version": "1", "extra": [1]}))
}

test_only_contract_documents if {
	count(contract.deny) == 0 with input as object.union(doc({}), {"format": "chat"})
}

test_every_problem_in_field_order if {
	msgs({
		"conversation_id": 12,
		"timestamp": "2026-13-01",
		"messages": [{"role": "user", "content": "ok"}, {"content": 5, "name": "x", "a": 1}, "hi"],
		"metadata": null,
	}) == {concat("", [
		"9 validation errors: conversation_id: Input should be a valid string (got number); ",
		"user_id: Field required; timestamp: Input should be a valid datetime (month 13 is out of range); ",
		"messages.1.role: Field required; messages.1.content: Input should be a valid string (got number); ",
		"messages.1.a: Extra inputs are not permitted; messages.1.name: Extra inputs are not permitted; ",
		"messages.2: Input should be a valid dictionary (got string); ",
		"metadata: Input should be a valid dictionary (got null)",
	])}
}

test_one_problem_is_singular if {
	msgs(object.union(good, {"user_id": 7})) == {"1 validation error: user_id: Input should be a valid string (got number)"}
}

test_missing_and_null_messages if {
	msgs(object.remove(good, ["messages"])) == {"1 validation error: messages: Field required"}
	msgs(object.union(good, {"messages": null})) == {"1 validation error: messages: Input should be a valid list (got null)"}
}

test_timestamp_forms if {
	every ts in ["2026-02-10", "2026-02-10 12:34", "2026-02-10t12:34:56.123456789+0530", 1770726896, "1770726896"] {
		count(contract.deny) == 0 with input as doc(object.union(good, {"timestamp": ts}))
	}
	every ts in [true, null, "", "Tue, 10 Feb 2026 12:34:56 GMT", "2026-02-30"] {
		count(contract.deny) == 1 with input as doc(object.union(good, {"timestamp": ts}))
	}
}

test_duplicate_id_message if {
	msgs := {f.msg | some f in contract.dataset_deny} with input as {"format": "contract", "key_duplicates": [{"line": 3, "first_line": 1, "member": "conversation_id", "value": "c'1"}]}
	msgs == {"Duplicate conversation_id 'c'1' in dataset (first seen on line 1)."}
}

test_duplicate_id_only_contract if {
	count(contract.dataset_deny) == 0 with input as {"format": "chat", "key_duplicates": [{"line": 3, "first_line": 1, "member": "conversation_id", "value": "c"}]}
}
