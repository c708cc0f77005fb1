package chatlint.batch_test

import data.chatlint.batch

hits(doc, rule) := [f | some f in batch.deny with input as doc; f.rule == rule]

output(raw) := {"format": "openai-batch-output", "messages": [], "tools": [], "raw": raw}

result(raw) := {"format": "anthropic-batch", "messages": [], "tools": [], "raw": raw}

ok_body := {"choices": [{"index": 0, "message": {"role": "assistant", "content": "4"}}]}

test_output_ok if {
	count(hits(output({"custom_id": "r1", "response": {"status_code": 200, "body": ok_body}, "error": null}), "batch-output-failed")) == 0
}

test_output_error_set if {
	[f] := hits(output({"custom_id": "r1", "response": null, "error": {"code": "batch_expired", "message": "This request could not be executed before the completion window expired."}}), "batch-output-failed")
	f.msg == `request "r1" failed: error batch_expired: This request could not be executed before the completion window expired.`
}

test_output_status_not_2xx if {
	[f] := hits(output({"custom_id": "r2", "response": {"status_code": 400, "body": {"error": {"type": "invalid_request_error", "message": "bad"}}}, "error": null}), "batch-output-failed")
	f.msg == `request "r2" failed: status 400: invalid_request_error: bad`
}

test_output_without_response if {
	[f] := hits(output({"custom_id": "r3", "error": null}), "batch-output-failed")
	f.msg == `request "r3" failed: the line has no response`
}

test_output_rule_only_on_outputs if {
	doc := object.union(output({"custom_id": "r1", "error": {"message": "x"}}), {"format": "chat"})
	count(hits(doc, "batch-output-failed")) == 0
}

test_result_succeeded if {
	count(hits(result({"custom_id": "r1", "result": {"type": "succeeded", "message": {"role": "assistant", "content": []}}}), "batch-result-failed")) == 0
}

test_result_errored if {
	[f] := hits(result({"custom_id": "r1", "result": {"type": "errored", "error": {"type": "error", "error": {"type": "invalid_request_error", "message": "max_tokens: Field required"}}}}), "batch-result-failed")
	f.msg == `request "r1" did not succeed: errored: invalid_request_error: max_tokens: Field required`
}

test_result_expired if {
	[f] := hits(result({"custom_id": "r1", "result": {"type": "expired"}}), "batch-result-failed")
	f.msg == `request "r1" did not succeed: result type "expired"`
}

test_request_line_is_not_a_result if {
	count(hits(result({"custom_id": "r1", "params": {"messages": []}}), "batch-result-failed")) == 0
}

test_duplicate if {
	doc := object.union(output({"custom_id": "r1", "response": {"status_code": 200, "body": ok_body}}), {"duplicate": {"member": "custom_id", "value": "r1", "first_line": 2}})
	[f] := hits(doc, "batch-custom-id-duplicate")
	f.msg == `custom_id "r1" was already used on line 2; each request of a batch needs its own`
}

test_no_duplicate if {
	count(hits(output({"custom_id": "r1", "response": {"status_code": 200, "body": ok_body}}), "batch-custom-id-duplicate")) == 0
}
