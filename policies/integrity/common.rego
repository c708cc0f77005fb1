package chatlint.integrity

# Shared helpers of the integrity pack. Record checks run on chat records and on the squashed
# record of a proxy-log session; session checks only on proxy-log documents.

# One rule per format: OPA's rule index finds the one for input.format without evaluating the
# others, where `input.format in {...}` is a call.
record_check if input.format == "chat"

record_check if input.format == "proxy-log"

session_check if input.format == "proxy-log"

# msg_path(m) is the JSON Pointer of a message inside its source line ("" when unknown).
msg_path(m) := object.get(m, "path", "")

# non_empty_string(x) holds for a string other than "".
non_empty_string(x) if {
	is_string(x)
	x != ""
}

# label(name) is a tool name for messages, or a placeholder when there is none.
label(name) := name if non_empty_string(name)

else := "<unnamed>"
