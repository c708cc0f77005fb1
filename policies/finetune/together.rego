package chatlint.finetune

# The together profile: what together-python's check_file refuses in a fine-tuning file
# (src/together/utils/files.py, its tests in tests/unit/test_files_checks.py, the columns and
# limits of src/together/constants.py). A record is in one of four formats, told by its
# columns: general {"text"}, conversation {"messages", "tools"}, instruction {"prompt",
# "completion"} and preference {"input", "preferred_output", "non_preferred_output"}.

together_ref := "togethercomputer/together-python src/together/utils/files.py@0890d35ff2b79b91bba7736d908a7ab58b806c10"

# together_formats are Together's formats: the columns a record of each must have, and the
# others it may have.
together_formats := {
	"general": {"required": {"text"}, "optional": set()},
	"conversation": {"required": {"messages"}, "optional": {"tools"}},
	"instruction": {"required": {"prompt", "completion"}, "optional": set()},
	"preference": {"required": {"input", "preferred_output", "non_preferred_output"}, "optional": set()},
}

together_keys := {k | some k, _ in input.raw}

together_matched := {n | some n, f in together_formats; every c in f.required { c in together_keys }}

# METADATA
# title: together-columns
# description: >-
#   Together: a record is in exactly one of its formats, told by its columns — general
#   (text), conversation (messages, and optionally tools), instruction (prompt and completion)
#   or preference (input, preferred_output and non_preferred_output) — and has no other column
#   ("Found extra column", "Could not detect a format", "Found multiple dataset formats").
# custom:
#   id: together-columns
#   severity: error
#   profiles: [together]
#   formats: [chat, preference, instruction, text]
#   refs:
#     - togethercomputer/together-python src/together/utils/files.py@0890d35ff2b79b91bba7736d908a7ab58b806c10 (_check_jsonl)
#     - togethercomputer/together-python src/together/constants.py (JSONL_REQUIRED_COLUMNS_MAP, JSONL_EXTRA_COLUMNS_MAP)
#     - https://docs.together.ai/docs/fine-tuning-data-preparation
#   example: |-
#     {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"}], "source": "crawl-7"}
#   fix: >-
#     Keep only the columns of the record's format (metadata belongs in another file), and write
#     Alpaca or ShareGPT records in one of Together's formats (chatlint convert --to openai).
deny contains f if {
	input.profile == "together"
	is_object(input.raw)
	some problem in together_column_problems
	f := {"rule": "together-columns", "msg": problem}
}

together_column_problems contains sprintf("the record matches none of Together's formats (its columns: %s; want text, messages, prompt and completion, or input with preferred_output and non_preferred_output)", [concat(", ", sort(together_keys))]) if {
	count(together_matched) == 0
}

together_column_problems contains sprintf("the record has the columns of several formats (%s); a record is in one", [concat(", ", sort(together_matched))]) if {
	count(together_matched) > 1
}

together_column_problems contains sprintf("the record has columns its %s format does not have: %s", [n, concat(", ", sort(extra))]) if {
	count(together_matched) == 1
	some n in together_matched
	fmt := together_formats[n]
	extra := (together_keys - fmt.required) - fmt.optional
	count(extra) > 0
}

# together_sites are the contents Together checks, as [where, role, content, path]: every
# message's content (a preference record's input messages too), an instruction record's prompt
# and completion, a general record's text, and the content of each preference output.
together_sites contains [sprintf("message %d (%s)", [m.index, label(m.role)]), m.role, m.raw.content, concat("", [m.path, "/content"])] if {
	input.format != "instruction"
	some m in input.messages
	is_object(m.raw)
	"content" in object.keys(m.raw)
}

together_sites contains [k, role, input.raw[k], concat("", ["/", k])] if {
	some k, role in {"prompt": "user", "completion": "assistant", "text": "user"}
	not "messages" in together_keys
	k in together_keys
}

together_sites contains [sprintf("%s[0]", [k]), "assistant", out.content, sprintf("/%s/0/content", [k])] if {
	some k in ["preferred_output", "non_preferred_output"]
	out := input.raw[k][0]
	is_object(out)
	"content" in object.keys(out)
}

together_image_prefixes := ["data:image/jpeg;base64,", "data:image/png;base64,", "data:image/webp;base64,"]

# together_max_image is MAX_BASE64_IMAGE_LENGTH: the data URL of a 10 MB image.
together_max_image := count("data:image/jpeg;base64,") + floor((4 * 10485760) / 3)

# together_content_problems(c, role) says what is wrong with a content of a message of the role.
together_content_problems(c, _) := {sprintf("is %s, not a string or a list of parts", [type_name(c)])} if {
	not is_string(c)
	not is_array(c)
}

together_content_problems(c, role) := {p | some i, part in c; p := together_part_problem(i, part, role)} if is_array(c)

together_part_problem(i, part, _) := sprintf("has part %d that is not an object with a type", [i]) if {
	not is_object(part)
}

together_part_problem(i, part, _) := sprintf("has part %d that is not an object with a type", [i]) if {
	is_object(part)
	not is_string(object.get(part, "type", null))
}

together_part_problem(i, part, _) := sprintf("has text part %d without a string text", [i]) if {
	part.type == "text"
	not is_string(object.get(part, "text", null))
}

together_part_problem(i, part, _) := sprintf("has part %d of type %q; Together takes text and image_url parts", [i, part.type]) if {
	is_string(part.type)
	not part.type in {"text", "image_url"}
}

together_part_problem(i, part, role) := sprintf("has an image (part %d) in a message of role %q; only user messages may hold images", [i, role]) if {
	part.type == "image_url"
	role != "user"
}

together_part_problem(i, part, "user") := sprintf("has image part %d whose image_url.url is not a base64 JPEG, PNG or WEBP data URL (data:image/<format>;base64,...)", [i]) if {
	part.type == "image_url"
	not together_image_url(object.get(object.get(part, "image_url", {}), "url", null))
}

together_part_problem(i, part, "user") := sprintf("has image part %d over 10 MB", [i]) if {
	part.type == "image_url"
	url := part.image_url.url
	together_image_url(url)
	count(url) > together_max_image
}

together_image_url(url) if {
	is_string(url)
	some p in together_image_prefixes
	startswith(url, p)
}

# METADATA
# title: together-content
# description: >-
#   Together: a content (a message's, a prompt's, a completion's, a text's, a preference
#   output's) is a string or a list of parts: text parts with a string text, and, in user
#   messages and prompts only, image_url parts whose url is a base64 JPEG, PNG or WEBP data URL
#   of at most 10 MB; at most 10 images per example, an image's message has weight 0 when it
#   has one, and the messages of one example are all strings or all lists of parts. A message
#   without content is refused unless it is an assistant message that calls tools.
# custom:
#   id: together-content
#   severity: error
#   profiles: [together]
#   formats: [chat, preference, instruction, text]
#   refs:
#     - togethercomputer/together-python src/together/utils/files.py@0890d35ff2b79b91bba7736d908a7ab58b806c10 (_check_message_content, validate_messages)
#     - togethercomputer/together-python tests/unit/test_files_checks.py@0890d35ff2b79b91bba7736d908a7ab58b806c10
#     - togethercomputer/together-python src/together/constants.py (MAX_IMAGES_PER_EXAMPLE 10, MAX_IMAGE_BYTES 10 MB)
#   example: |-
#     {"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}}]}, {"role": "assistant", "content": "A cat."}]}
#   fix: >-
#     Give content as a string, or as text and image_url parts; embed images as
#     data:image/png;base64,... in user messages.
deny contains f if {
	input.profile == "together"
	some [where, role, c, path] in together_sites
	some problem in together_content_problems(c, role)
	f := {"rule": "together-content", "msg": sprintf("%s: the content %s", [where, problem]), "path": path}
}

deny contains f if {
	input.profile == "together"
	some m in input.messages
	is_object(m.raw)
	not "content" in object.keys(m.raw)
	not together_calls(m)
	f := {"rule": "together-content", "msg": sprintf("message %d (%s) has no content", [m.index, label(m.role)]), "message_index": m.index}
}

deny contains f if {
	input.profile == "together"
	n := count(together_images)
	n > 10
	f := {"rule": "together-content", "msg": sprintf("the example holds %d images; Together takes at most 10", [n])}
}

deny contains f if {
	input.profile == "together"
	some m in input.messages
	is_array(m.raw.content)
	some part in m.raw.content
	part.type == "image_url"
	object.get(m.raw, "weight", 0) != 0
	f := {"rule": "together-content", "msg": sprintf("message %d holds an image and has weight %v; a message with images must have weight 0", [m.index, m.raw.weight]), "message_index": m.index}
}

deny contains f if {
	input.profile == "together"
	input.format != "instruction"
	kinds := {is_array(m.raw.content) | some m in input.messages; is_object(m.raw); "content" in object.keys(m.raw); not is_null(m.raw.content)}
	count(kinds) > 1
	f := {"rule": "together-content", "msg": "the messages mix string content and lists of parts; an example's messages are all one or all the other"}
}

together_calls(m) if {
	m.role == "assistant"
	count(m.tool_calls) > 0
}

together_images contains [i, j] if {
	some [i, _, c, _] in together_sites
	is_array(c)
	some j, part in c
	part.type == "image_url"
}

# METADATA
# title: together-weight
# description: >-
#   Together: a message's weight (on any role) is an integer, 0 or 1 ("Weight must be an
#   integer", "Weight must be either 0 or 1"); 1.0 is not an integer.
# custom:
#   id: together-weight
#   severity: error
#   profiles: [together]
#   formats: [chat, preference]
#   refs:
#     - togethercomputer/together-python src/together/utils/files.py@0890d35ff2b79b91bba7736d908a7ab58b806c10 (_check_message_weight)
#     - togethercomputer/together-python tests/unit/test_files_checks.py@0890d35ff2b79b91bba7736d908a7ab58b806c10 (test_check_jsonl_invalid_weight_float, test_check_jsonl_invalid_weight)
#   example: |-
#     {"messages": [{"role": "user", "content": "Hi", "weight": 1.0}, {"role": "assistant", "content": "Hello!", "weight": 2}]}
#   fix: >-
#     Write weight as 0 or 1.
deny contains f if {
	input.profile == "together"
	some m in input.messages
	is_object(m.raw)
	"weight" in object.keys(m.raw)
	problem := together_weight_problem(m.raw.weight)
	f := {
		"rule": "together-weight",
		"msg": sprintf("message %d (%s) %s", [m.index, label(m.role), problem]),
		"message_index": m.index,
		"path": concat("", [m.path, "/weight"]),
	}
}

together_weight_problem(w) := sprintf("has weight %s, not an integer", [json.marshal(w)]) if {
	not integer_json(w)
} else := sprintf("has weight %v; it must be 0 or 1", [w]) if {
	not w in {0, 1}
}

# integer_json holds for a JSON number written without a fraction or an exponent, as Python's
# json.loads reads an int.
integer_json(w) if {
	is_number(w)
	regex.match(`^-?[0-9]+$`, json.marshal(w))
}

# METADATA
# title: together-assistant-missing
# description: >-
#   Together: a conversation has at least one assistant message ("At least one message with
#   the assistant role must be present in the example"); a preference record's input need not.
# custom:
#   id: together-assistant-missing
#   severity: error
#   profiles: [together]
#   formats: [chat]
#   refs:
#     - togethercomputer/together-python src/together/utils/files.py@0890d35ff2b79b91bba7736d908a7ab58b806c10 (_check_conversation_roles)
#     - togethercomputer/together-python tests/unit/test_files_checks.py@0890d35ff2b79b91bba7736d908a7ab58b806c10 (test_check_jsonl_assistant_role_exists)
#   example: |-
#     {"messages": [{"role": "user", "content": "Hi"}]}
#   fix: >-
#     Add the assistant's reply, or drop the example.
deny contains f if {
	input.profile == "together"
	is_array(input.raw.messages)
	count(input.messages) > 0
	not "assistant" in {m.role | some m in input.messages}
	f := {"rule": "together-assistant-missing", "msg": sprintf("the conversation has no assistant message (%d messages)", [count(input.messages)])}
}
