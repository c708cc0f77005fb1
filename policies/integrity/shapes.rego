package chatlint.integrity

# Shape checks that need more than one YAML rule can say: tool definitions in both the OpenAI
# form ({"type": "function", "function": {...}}) and the flattened form ({"name", "parameters"})
# of converted records; the two levels of assistant tool_calls; and tag counting.
#
# Convention of the pack: a member that is null counts as absent ("when present" means present
# and not null).

# ---------------------------------------------------------------------------------------------
# Tool definitions.

# The tools whose definition is valid in the OpenAI form (the common case, checked without a
# function call), then the flattened form for the others.
tools_ok := {t.index |
	record_check
	some t in input.tools
	p := t.raw.function.parameters
	p.type == "object"
	is_object(p.properties)
	is_array(object.get(p, "required", []))
}

flat_tool_ok(raw) if {
	not raw.function
	p := raw.parameters
	p.type == "object"
	is_object(p.properties)
	is_array(object.get(p, "required", []))
}

# tool_def(t) is [definition, JSON Pointer of the definition]: the `function` object when the
# tool wraps one, else the tool object itself.
tool_def(t) := [t.raw.function, concat("", [object.get(t, "path", ""), "/function"])] if {
	is_object(t.raw.function)
} else := [t.raw, object.get(t, "path", "")]

# tool_def_problems(t) is the set of {why, path} problems of one tool definition: one when the
# definition is not an object or has no parameters object, else one per broken member of
# parameters.
tool_def_problems(t) := {{"why": sprintf("the definition is %s, not an object", [type_name(raw)]), "path": object.get(t, "path", "")}} if {
	raw := object.get(t, "raw", null)
	not is_object(raw)
} else := {{"why": "parameters is missing or not an object", "path": concat("", [def[1], "/parameters"])}} if {
	def := tool_def(t)
	not is_object(object.get(def[0], "parameters", null))
} else := {p |
	def := tool_def(t)
	some k in ["type", "properties", "required"]
	p := parameters_problem(def[0].parameters, concat("", [def[1], "/parameters"]), k)
}

parameters_problem(params, base, "type") := {"why": sprintf("parameters.type is %s, not \"object\"", [json.marshal(v)]), "path": concat("", [base, "/type"])} if {
	v := object.get(params, "type", null)
	v != "object"
}

parameters_problem(params, base, "properties") := {"why": "parameters.properties is missing or not an object", "path": concat("", [base, "/properties"])} if {
	not is_object(object.get(params, "properties", null))
}

parameters_problem(params, base, "required") := {"why": "parameters.required is not a list", "path": concat("", [base, "/required"])} if {
	v := object.get(params, "required", null)
	v != null
	not is_array(v)
}

# METADATA
# title: tool-definition-schema
# description: >-
#   Each tool definition is an object; its parameters (inside `function` when the tool wraps
#   one) is an object whose type is "object", whose properties is an object and whose
#   required, when present, is a list. One finding per broken definition and member.
# custom:
#   id: tool-definition-schema
#   severity: error
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "content": "18 °C."}], "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": ["city"]}}}]}
#   fix: >-
#     Give each tool a JSON Schema object as `parameters`: `{"type": "object", "properties":
#     {...}, "required": [...]}` (inside `function` for the OpenAI form).
deny contains f if {
	record_check
	count(tools_ok) < count(input.tools)
	some t in input.tools
	not tools_ok[t.index]
	not flat_tool_ok(t.raw)
	some p in tool_def_problems(t)
	f := {
		"rule": "tool-definition-schema",
		"msg": sprintf("tool %d (%q): %s", [t.index, label(object.get(t, "name", "")), p.why]),
		"tool_index": t.index,
		"path": p.path,
	}
}

# ---------------------------------------------------------------------------------------------
# Structured tool calls.

# call_shape_problem(e) says what is wrong with one entry of assistant.tool_calls.
call_shape_problem(e) := sprintf("is %s, not an object", [type_name(e)]) if {
	not is_object(e)
} else := "has no function object" if {
	not is_object(object.get(e, "function", null))
} else := "function.name is not a non-empty string" if {
	not non_empty_string(object.get(e.function, "name", null))
}

# call_label(e) is the id and tool name of a tool_calls entry, as far as they exist.
call_label(e) := sprintf("id %q, tool %q", [object.get(e, "id", ""), label(object.get(object.get(e, "function", {}), "name", ""))]) if {
	is_object(e)
	is_object(object.get(e, "function", {}))
} else := sprintf("id %q", [object.get(e, "id", "")]) if {
	is_object(e)
} else := "no id"

# METADATA
# title: tool-calls-shape
# description: >-
#   Structured mode: assistant tool_calls is a list when present; each entry is an object with
#   a function object whose name is a non-empty string.
# custom:
#   id: tool-calls-shape
#   severity: error
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "tool_calls": {"id": "call_1", "function": {"name": "get_weather", "arguments": "{}"}}}], "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]}
#   fix: >-
#     Make `tool_calls` a list of `{"id", "type": "function", "function": {"name",
#     "arguments"}}` objects.
deny contains f if {
	record_check
	input.mode == "structured"
	some m in assistant_msgs
	tcs := m.raw.tool_calls
	tcs != null
	not is_array(tcs)
	f := {
		"rule": "tool-calls-shape",
		"msg": sprintf("assistant message %d: tool_calls is %s, not a list", [m.index, type_name(tcs)]),
		"message_index": m.index,
		"path": concat("", [msg_path(m), "/tool_calls"]),
	}
}

deny contains f if {
	record_check
	input.mode == "structured"
	some m in assistant_msgs
	tcs := m.raw.tool_calls
	is_array(tcs)
	count([1 | some e in tcs; is_string(e.function.name); e.function.name != ""]) < count(tcs)
	some i, e in tcs
	why := call_shape_problem(e)
	f := {
		"rule": "tool-calls-shape",
		"msg": sprintf("assistant message %d, tool_calls[%d] (%s) %s", [m.index, i, call_label(e), why]),
		"message_index": m.index,
		"path": sprintf("%s/tool_calls/%d", [msg_path(m), i]),
	}
}

# ---------------------------------------------------------------------------------------------
# Inline tool-call tags.

# METADATA
# title: inline-tool-call-tags
# description: "Inline mode: an assistant message has as many <tool_call> as </tool_call> tags."
# custom:
#   id: inline-tool-call-tags
#   severity: error
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "content": "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}"}], "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]}
#   fix: >-
#     Close every `<tool_call>` with `</tool_call>`, or remove the stray tag.
deny contains f if {
	record_check
	input.mode == "inline"
	some m in assistant_msgs
	contains(m.text, "tool_call>")
	opens := strings.count(m.text, "<tool_call>")
	closes := strings.count(m.text, "</tool_call>")
	opens != closes
	f := {
		"rule": "inline-tool-call-tags",
		"msg": sprintf("assistant message %d has %d <tool_call> but %d </tool_call> tags", [m.index, opens, closes]),
		"message_index": m.index,
	}
}
