package chatlint.finetune

# Tool calls against the tools a record declares: arguments that parse, that match the declared
# JSON Schema, and tools that are declared at all. They read the normalized calls and tools, so
# they hold for OpenAI tool_calls, Anthropic tool_use blocks (input_schema), inline calls and
# agent sessions alike.

# declared are the names of the record's tools; OpenAI's legacy `functions` list counts too.
declared := (input.lookup.tool_names - {""}) | {f.name | some f in object.get(input.raw, "functions", []); is_string(f.name)}

# call_msgs are the indexes of the messages that make tool calls.
call_msgs contains i if some [i, _] in input.lookup.calls

call_msg(m, c, what) := sprintf("tool call %d of message %d (tool %q) %s", [c.index, m.index, label(c.name), what])

call_finding(rule, m, c, what) := {
	"rule": rule,
	"msg": call_msg(m, c, what),
	"message_index": m.index,
	"tool_call_index": c.index,
}

# METADATA
# title: tool-arguments-schema
# description: >-
#   A tool call's arguments break the JSON Schema its tool declares (`parameters`, or Anthropic's
#   `input_schema`): a required property missing, a value of the wrong type, a value outside an
#   enum, a property the schema forbids (additionalProperties false), and every other keyword of
#   JSON Schema draft 2020-12. One finding per call, listing every violation with its place in
#   the arguments.
# custom:
#   id: tool-arguments-schema
#   severity: error
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"town\": \"Paris\"}"}}]}], "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": false}}}]}
#   fix: >-
#     Give the call the arguments its schema asks for, or correct the schema.
deny contains f if {
	count(input.lookup.calls) > 0
	count(input.tools) > 0
	some [i, j, errs] in chatlint.call_schema_errors(input)
	m := input.messages[i]
	c := m.tool_calls[j]
	parts := [sprintf("%s: %s", [where(e.path), e.msg]) | some e in errs]
	f := call_finding("tool-arguments-schema", m, c, sprintf("has arguments that break its schema: %s", [concat("; ", parts)]))
}

where(p) := "arguments" if p == ""

else := concat("", ["arguments", p])

# METADATA
# title: tool-call-undeclared
# description: >-
#   A tool call names a tool the record does not declare, in a record that declares tools (a
#   record that calls tools and declares none is tools-shape's finding). A warning under the
#   default profile; an error under the openai profile, as the platform requires each called
#   function to be declared in the example's tools (or functions).
# custom:
#   id: tool-call-undeclared
#   severity: warning
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_forecast", "arguments": "{}"}}]}], "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {}}}}]}
#   fix: >-
#     Declare the tool in the record's `tools`, or correct the name of the call.
warn contains f if {
	# A name the tools declare never gets past this line, so a record that calls only its own
	# tools costs one set difference, and `declared` is gathered only for an undeclared name.
	some name in (input.lookup.call_names - input.lookup.tool_names)
	name != ""
	not name in declared
	count(declared) > 0
	some i in call_msgs
	m := input.messages[i]
	some c in m.tool_calls
	c.name == name
	what := sprintf("calls a tool the record does not declare (it declares %s)", [concat(", ", sort(declared))])
	f := object.union(call_finding("tool-call-undeclared", m, c, what), undeclared_severity)
}

undeclared_severity := {"severity": "error"} if provider

else := {}
