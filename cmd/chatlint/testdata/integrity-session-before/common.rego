package chatlint.integrity

# The Rego half of the integrity pack: the session rules of proxy logs (session.rego). The
# record and block rules are YAML rules in rules/integrity/ (compiled to Go matchers, see
# docs/writing-rules.md); this file only documents the package.
#
# Formats: a rule that needs more than the normalized document declares the formats it applies
# to in its METADATA (custom.formats), which chatlint enforces and `chatlint rules` shows: the
# session rules read the entries of a proxy log. A document of a format that no Rego rule
# declares is not evaluated by OPA at all.
#
# Profiles: the document's `profile` field is the --profile a run uses. The default profile
# judges a file as what it is (a fine-tuning example that ends on a tool call is training data);
# `export` keeps the strict checks a conversation export must pass (every call answered, every
# record with a tools list).

# Helpers for the pack's Rego rules (and for rules added to the package later).

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
