package chatlint.finetune

# Shared helpers of the finetune pack.
#
# Profiles: the default profile runs the rules that are wrong for every consumer of a dataset
# (arguments that do not parse or break their schema, undeclared tools, empty conversations,
# roles no format knows); they are YAML rules (rules/finetune/finetune.yaml), so every Rego rule
# here declares the provider profiles it runs under and OPA has nothing to do under the default
# profile. A provider profile (`check --profile openai`) adds that provider's
# upload rules; a rule that differs between profiles keeps its variants side by side, and a rule
# of one provider declares it in custom.profiles, which chatlint enforces and `chatlint rules
# --profile NAME` lists.

openai if input.profile == "openai"

# provider holds under any provider profile.
provider if input.profile in {"openai", "mistral", "together", "bedrock"}

# type_name(x) is the JSON type of x, for messages.
type_name(x) := "a string" if is_string(x)

else := "a number" if is_number(x)

else := "a boolean" if is_boolean(x)

else := "null" if is_null(x)

else := "an array" if is_array(x)

else := "an object" if is_object(x)

# label(name) is a tool name for messages, or a placeholder when there is none.
label(name) := name if {
	is_string(name)
	name != ""
} else := "<unnamed>"

# call_msgs are the indexes of the messages that make tool calls.
call_msgs contains i if some [i, _] in input.lookup.calls

call_msg(m, c, what) := sprintf("tool call %d of message %d (tool %q) %s", [c.index, m.index, label(c.name), what])

call_finding(rule, m, c, what) := {
	"rule": rule,
	"msg": call_msg(m, c, what),
	"message_index": m.index,
	"tool_call_index": c.index,
}
