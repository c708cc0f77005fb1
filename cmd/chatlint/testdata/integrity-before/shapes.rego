package chatlint.integrity

# Shape checks that need more than one YAML rule can say: the two levels of assistant
# tool_calls, and tag counting. (tool-definition-schema is a YAML rule: it reads only the
# tools, so chatlint evaluates it once per distinct tools list.)
#
# Convention of the pack: a member that is null counts as absent ("when present" means present
# and not null).

# ---------------------------------------------------------------------------------------------
# Structured tool calls.

# The two tool-calls-shape rules visit only the messages that have a tool_calls member
# (input.lookup.tool_call_lists) and test the role on those: walking every assistant message
# took three steps per message before failing on that member, and a reference over all messages
# still one per message.

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
	input.mode == "structured"
	some ai in input.lookup.tool_call_lists
	m := input.messages[ai]
	tcs := m.raw.tool_calls
	not is_array(tcs)
	m.role == "assistant"
	f := {
		"rule": "tool-calls-shape",
		"msg": sprintf("assistant message %d: tool_calls is %s, not a list", [m.index, type_name(tcs)]),
		"message_index": m.index,
		"path": concat("", [msg_path(m), "/tool_calls"]),
	}
}

deny contains f if {
	input.mode == "structured"
	some ai in input.lookup.tool_call_lists
	m := input.messages[ai]
	tcs := m.raw.tool_calls
	is_array(tcs)
	count([1 | some e in tcs; is_string(e.function.name); e.function.name != ""]) < count(tcs)
	m.role == "assistant"
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
	input.mode == "inline"
	some ai in input.lookup.assistant
	m := input.messages[ai]
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

# ---------------------------------------------------------------------------------------------
# The record's tools list.

# tools_problem is what is wrong with the record's tools list, if anything. A record that makes
# no tool call needs no tools list (plain chat data has none); one that does, or any record under
# the export profile, needs a non-empty list. A tools list that is given must be a non-empty
# list under either profile.
tools_problem := sprintf("the record's tools is %s, not a list", [type_name(tools)]) if {
	tools := object.get(input.raw, "tools", null)
	tools != null
	not is_array(tools)
	not is_string(tools)
} else := "the record's tools is a string that holds no JSON list of tools" if {
	# LLaMA-Factory writes the list as a JSON string (changed with the YAML rule, issue 37)
	is_string(input.raw.tools)
	input.tools == []
} else := "the record's tools list is empty" if {
	input.raw.tools == []
	tools_required
} else := "the record makes tool calls but has no tools list" if {
	object.get(input.raw, "tools", null) == null
	input.lookup.calls != set()
} else := "the record has no tools list (the export profile requires one)" if {
	export
	object.get(input.raw, "tools", null) == null
}

tools_required if export

tools_required if input.lookup.calls != set()

# tools-shape is two rules, so that a record with a non-empty tools list (nearly every record)
# fails each at its first expression instead of evaluating every branch of tools_problem.

# METADATA
# title: tools-shape
# description: >-
#   The record's tools is a non-empty list when present. A record that makes tool calls needs
#   one; a record without tool calls may have none (or an empty list). Under the export profile
#   every record needs a non-empty tools list. check --allow-no-tools turns the rule off.
# custom:
#   id: tools-shape
#   severity: error
#   formats: [chat, contract, proxy-log]
#   example: |-
#     {"messages": [{"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "{\"temp_c\": 18}"}, {"role": "assistant", "content": "18 °C."}]}
#   fix: >-
#     Add the tool definitions the conversation was made with; for a dataset whose records
#     legitimately have none, run `check --allow-no-tools`.
deny contains f if {
	not is_array(object.get(input.raw, "tools", null)) # absent, null or not a list
	why := tools_problem
	f := {"rule": "tools-shape", "msg": why, "path": tools_path}
}

deny contains f if {
	input.raw.tools == []
	why := tools_problem
	f := {"rule": "tools-shape", "msg": why, "path": tools_path}
}

# The pointer of the tools list in the line: a proxy-log's raw record is the squashed one, not a
# line of the file.
tools_path := "/tools" if {
	input.format != "proxy-log"
	object.get(input.raw, "tools", null) != null
} else := ""

# ---------------------------------------------------------------------------------------------
# Tool definitions under the export profile.

# tool-definition-schema (declared with the YAML rule, rules/integrity/integrity.yaml) accepts a
# null `required` as absent; an export must not have one, as the converters it feeds reject it.
deny contains f if {
	export
	some t in input.tools
	t.parameters.required == null
	f := {
		"rule": "tool-definition-schema",
		"msg": sprintf("tool %d (%q): parameters.required must be a list under the export profile (it is null)", [t.index, t.name]),
		"tool_index": t.index,
		"path": concat("", [t.parameters_path, "/required"]),
	}
}
