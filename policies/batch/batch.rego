package chatlint.batch

# Rules on the batch layer of OpenAI Batch API and Anthropic Message Batches files. A batch line
# is one document: input.raw is the line, input.messages the messages of the request it wraps.
# input.duplicate is set when the line's custom_id was used by an earlier line of the same file:
# {"member": "custom_id", "value", "first_line"} (the reader sees every line of a file in order;
# the documents of a per-record format are built apart, so it is the reader that tells).

# METADATA
# title: batch-custom-id-duplicate
# description: >-
#   Every request of a batch has its own custom_id: the OpenAI Batch API and Anthropic Message
#   Batches both require custom_id to be unique within a batch, since it is the only key that
#   matches a result to its request (results come back in any order). Reported on each line
#   that reuses a custom_id of an earlier line, naming that line.
# custom:
#   id: batch-custom-id-duplicate
#   formats: [openai-batch-input, openai-batch-output, anthropic-batch]
#   severity: error
#   example: |-
#     {"custom_id": "request-1", "method": "POST", "url": "/v1/chat/completions", "body": {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Hi"}]}}
#     {"custom_id": "request-1", "method": "POST", "url": "/v1/chat/completions", "body": {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Hello"}]}}
#   fix: >-
#     Give each request a custom_id of its own (a line number or a content hash will do), and
#     match results to requests by it.
deny contains f if {
	d := input.duplicate
	f := {
		"rule": "batch-custom-id-duplicate",
		"msg": sprintf("%s %q was already used on line %d; each request of a batch needs its own", [d.member, d.value, d.first_line]),
		"path": "/custom_id",
	}
}

# METADATA
# title: batch-output-failed
# description: >-
#   A line of an OpenAI Batch API output file records a request that failed: its error is set,
#   or its response's status_code is not 2xx (the Batch API writes failed requests to the
#   output with the HTTP status and error body the endpoint returned). The line holds no usable
#   completion.
# custom:
#   id: batch-output-failed
#   formats: [openai-batch-output]
#   severity: error
#   example: |-
#     {"id": "batch_req_1", "custom_id": "request-1", "response": {"status_code": 400, "request_id": "req_1", "body": {"error": {"message": "Invalid 'messages[1].tool_call_id'.", "type": "invalid_request_error"}}}, "error": null}
#   fix: >-
#     Correct the request (check its line in the input file) and send it again in a new batch;
#     leave the failed line out of anything built from the outputs.
deny contains f if {
	input.format == "openai-batch-output"
	why := output_failure
	f := {"rule": "batch-output-failed", "msg": sprintf("request %q failed: %s", [input.raw.custom_id, why])}
}

output_failure := sprintf("error %s", [describe(input.raw.error)]) if {
	not falsy(object.get(input.raw, "error", null))
} else := "the line has no response" if {
	not is_object(object.get(input.raw, "response", null))
} else := sprintf("status %v%s", [status, body_error]) if {
	status := object.get(input.raw.response, "status_code", null)
	not ok_status(status)
	body_error := error_suffix(object.get(input.raw.response, ["body", "error"], null))
}

ok_status(s) if {
	is_number(s)
	s >= 200
	s < 300
}

error_suffix(e) := sprintf(": %s", [describe(e)]) if not falsy(e)

else := ""

# describe(e) words an error object as "code: message", or shows it as JSON.
describe(e) := sprintf("%s: %s", [label, e.message]) if {
	is_object(e)
	is_string(e.message)
	label := first_string([object.get(e, "code", null), object.get(e, "type", null), "error"])
} else := json.marshal(e)

first_string(xs) := [x | some x in xs; is_string(x)][0]

falsy(null)

falsy(false)

falsy("")

falsy({})

# METADATA
# title: batch-result-failed
# description: >-
#   A line of an Anthropic Message Batches results file records a request that did not succeed:
#   result.type is errored (the request was invalid or the API failed), canceled (the batch was
#   canceled first) or expired (the batch's 24 hours ran out first), as the Message Batches API
#   defines result types. Only succeeded results hold a message.
# custom:
#   id: batch-result-failed
#   formats: [anthropic-batch]
#   severity: error
#   example: |-
#     {"custom_id": "request-2", "result": {"type": "errored", "error": {"type": "error", "error": {"type": "invalid_request_error", "message": "max_tokens: Field required"}}}}
#   fix: >-
#     errored: correct the request and send it again; canceled or expired: send it again in a
#     new batch. Leave the line out of anything built from the results.
deny contains f if {
	input.format == "anthropic-batch"
	r := input.raw.result
	is_object(r)
	object.get(r, "type", null) != "succeeded"
	f := {"rule": "batch-result-failed", "msg": sprintf("request %q did not succeed: %s", [input.raw.custom_id, result_failure(r)])}
}

result_failure(r) := sprintf("errored: %s", [describe(r.error.error)]) if {
	r.type == "errored"
	is_object(r.error.error)
} else := sprintf("result type %s", [json.marshal(object.get(r, "type", null))])
