package chatlint.integrity

# Shared helpers of the integrity pack.
#
# Formats: the conversation rules are written over the normalized document and apply to every
# input format (chat and contract records, the squashed record of a proxy-log session, an agent
# session). A rule that needs more declares the formats it applies to in its METADATA
# (custom.formats), which chatlint enforces and `chatlint rules` shows: the record shape rules
# read the record itself (raw), which only record formats have; the session rules read the
# entries of a proxy log.
#
# Profiles: the document's `profile` field is the --profile a run uses. The default profile
# judges a file as what it is (a fine-tuning example that ends on a tool call is training data);
# `export` keeps the strict checks a conversation export must pass (every call answered, every
# record with a tools list). A rule that differs between profiles reads `export` below.

# export holds under the strict profile.
export if input.profile == "export"

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
