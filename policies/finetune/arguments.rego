package chatlint.finetune

# Tool calls against the tools a record declares: arguments that parse, that match the declared
# JSON Schema, and tools that are declared at all. They read the normalized calls and tools, so
# they hold for OpenAI tool_calls, Anthropic tool_use blocks (input_schema), inline calls and
# agent sessions alike.

# declared are the names of the record's tools; OpenAI's legacy `functions` list counts too.
declared contains t.name if {
	some t in input.tools
	t.name != ""
}

declared contains f.name if {
	some f in input.raw.functions
	is_string(f.name)
}

# tool_params[name] is the JSON Schema of the first tool of that name that declares one.
tool_params[name] := p if {
	some name in {t.name | some t in input.tools; is_object(t.parameters)}
	first := min({t.index | some t in input.tools; t.name == name; is_object(t.parameters)})
	p := input.tools[first].parameters
}

call_msg(m, c, what) := sprintf("tool call %d of message %d (tool %q) %s", [c.index, m.index, label(c.name), what])

call_finding(rule, m, c, what) := {
	"rule": rule,
	"msg": call_msg(m, c, what),
	"message_index": m.index,
	"tool_call_index": c.index,
}

# METADATA
# title: tool-arguments-invalid-json
# description: >-
#   A tool call's arguments are a string that does not parse as JSON. Every consumer parses the
#   arguments (OpenAI's fine-tuning upload rejects them; an agent replaying the call fails). An
#   empty string counts as no arguments, not as broken ones.
# custom:
#   id: tool-arguments-invalid-json
#   severity: error
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{not json"}}]}], "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]}
#   fix: >-
#     Write the arguments as the JSON text of an object, `"{\"city\": \"Paris\"}"`.
deny contains f if {
	some i in input.lookup.assistant
	m := input.messages[i]
	some c in m.tool_calls
	is_string(c.arguments)
	trim_space(c.arguments) != "" # an empty string is no arguments, as tool-call-missing-input takes it
	not json.is_valid(c.arguments)
	f := call_finding("tool-arguments-invalid-json", m, c, sprintf("has arguments that are not JSON: %s", [short(c.arguments)]))
}

# short(s) cuts a string for a message.
short(s) := sprintf("%q", [s]) if count(s) <= 40

else := sprintf("%q…", [substring(s, 0, 40)])

# METADATA
# title: tool-arguments-not-object
# description: >-
#   A tool call's arguments parse to JSON that is not an object (a number, a list, or a string
#   holding JSON again: double-encoded arguments). OpenAI's upload accepts such a string, but the
#   model learns to emit it; function-calling APIs expect an object.
# custom:
#   id: tool-arguments-not-object
#   severity: warning
#   example: |-
#     {"messages": [{"role": "user", "content": "Take off"}, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "takeoff", "arguments": "\"{\\\"altitude\\\": 100}\""}}]}], "tools": [{"type": "function", "function": {"name": "takeoff", "parameters": {"type": "object", "properties": {"altitude": {"type": "number"}}}}}]}
#   fix: >-
#     Decode the arguments once, so they are the JSON text of an object.
warn contains f if {
	some i in input.lookup.assistant
	m := input.messages[i]
	some c in m.tool_calls
	is_string(c.arguments)
	json.is_valid(c.arguments)
	v := json.unmarshal(c.arguments)
	not is_object(v)
	f := call_finding("tool-arguments-not-object", m, c, sprintf("has arguments that parse to %s, not an object", [type_name(v)]))
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
	some i in input.lookup.assistant
	m := input.messages[i]
	some c in m.tool_calls
	schema := tool_params[c.name]
	args := parsed_arguments(c)
	is_object(args)
	errs := chatlint.schema_errors(schema, args)
	count(errs) > 0
	parts := [sprintf("%s: %s", [where(e.path), e.msg]) | some e in errs]
	f := call_finding("tool-arguments-schema", m, c, sprintf("has arguments that break its schema: %s", [concat("; ", parts)]))
}

where(p) := "arguments" if p == ""

else := concat("", ["arguments", p])

# METADATA
# title: tool-schema-invalid
# description: >-
#   A tool's declared schema is not a valid JSON Schema (draft 2020-12, or the draft its
#   `$schema` names): a type that does not exist ("str", "dict"), `required` that is not a list
#   of strings, a bad pattern, a `$ref` to another document. Reported once the definition has the
#   basic shape tool-definition-schema checks, so one broken schema is one finding.
# custom:
#   id: tool-schema-invalid
#   severity: error
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "content": "18 °C."}], "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "str"}}}}}]}
#   fix: >-
#     Use JSON Schema's own words (`"string"`, `"integer"`, `"object"`, ...) in the schema.
deny contains f if {
	some t in input.tools
	is_object(t.parameters)
	t.parameters.type == "object"
	is_object(object.get(t.parameters, "properties", {}))
	is_array(object.get(t.parameters, "required", [])) # tool-definition-schema reports a bad required
	problem := chatlint.schema_problem(t.parameters)
	problem != ""
	f := {
		"rule": "tool-schema-invalid",
		"msg": sprintf("tool %d (%q) declares a schema that is not valid JSON Schema: %s", [t.index, label(t.name), problem]),
		"tool_index": t.index,
		"path": t.parameters_path,
	}
}

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
	not provider
	count(declared) > 0
	some i in input.lookup.assistant
	m := input.messages[i]
	some c in m.tool_calls
	c.name != ""
	not declared[c.name]
	f := call_finding("tool-call-undeclared", m, c, sprintf("calls a tool the record does not declare (it declares %s)", [concat(", ", sort(declared))]))
}

warn contains f if {
	provider
	count(declared) > 0
	some i in input.lookup.assistant
	m := input.messages[i]
	some c in m.tool_calls
	c.name != ""
	not declared[c.name]
	what := sprintf("calls a tool the record does not declare (it declares %s)", [concat(", ", sort(declared))])
	f := object.union(call_finding("tool-call-undeclared", m, c, what), {"severity": "error"})
}
