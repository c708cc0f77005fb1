package chatlint.integrity

# ShareGPT records hold tool calls and tool definitions as JSON inside strings (Glaive and
# LLaMA-Factory): a function_call turn's value and the tools member. The document reads what
# parses; these rules report what does not, which LLaMA-Factory's loader would fail on
# (json.loads of the value or of tools).

# METADATA
# title: sharegpt-function-call-invalid
# description: >-
#   A ShareGPT function_call turn's value is a JSON object {"name", "arguments"} (or a list of
#   them), as a string or as JSON: LLaMA-Factory's function-calling templates and the Glaive
#   data decode it with json.loads. Reported per call that could not be read, with the reason.
# custom:
#   id: sharegpt-function-call-invalid
#   formats: [sharegpt]
#   severity: error
#   example: |-
#     {"conversations": [{"from": "human", "value": "Weather in Lyon?"}, {"from": "function_call", "value": "get_weather(city='Lyon')"}, {"from": "observation", "value": "{\"temp_c\": 21}"}, {"from": "gpt", "value": "21 °C."}]}
#   fix: >-
#     Write the call as JSON: `{"name": "get_weather", "arguments": {"city": "Lyon"}}`.
deny contains f if {
	input.format == "sharegpt"
	some i in input.lookup.assistant
	m := input.messages[i]
	m.raw.from == "function_call"
	some c in m.tool_calls
	c.parse_error
	f := {
		"rule": "sharegpt-function-call-invalid",
		"msg": sprintf("function_call turn %d: %s", [m.index, c.parse_error]),
		"message_index": m.index,
		"path": c.path,
	}
}

# METADATA
# title: sharegpt-tools-invalid
# description: >-
#   A ShareGPT record's tools, when given as a string (LLaMA-Factory), holds a JSON list of tool
#   definitions: the loader decodes it with json.loads, and a string that is not a JSON list
#   declares no tool.
# custom:
#   id: sharegpt-tools-invalid
#   formats: [sharegpt]
#   severity: error
#   example: |-
#     {"tools": "[{\"name\": \"get_weather\", \"parameters\": {\"type\": \"object\"}", "conversations": [{"from": "human", "value": "Hi"}, {"from": "gpt", "value": "Hello!"}]}
#   fix: >-
#     Make tools a JSON list (as a string or as JSON): `[{"name", "description", "parameters"}]`;
#     an empty string or "[]" declares no tool.
deny contains f if {
	input.format == "sharegpt"
	tools := input.raw.tools
	is_string(tools)
	trim_space(tools) != ""
	not holds_json_list(tools)
	f := {"rule": "sharegpt-tools-invalid", "msg": sprintf("tools is a string that does not hold a JSON list: %s", [shorten(tools)]), "path": "/tools"}
}

holds_json_list(s) if {
	json.is_valid(s)
	is_array(json.unmarshal(s))
}

shorten(s) := sprintf("%q", [s]) if count(s) <= 60

else := sprintf("%q…", [substring(s, 0, 60)])
