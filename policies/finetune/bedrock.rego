package chatlint.finetune

# The bedrock profile: Claude fine-tuning records on Amazon Bedrock ({"system", "messages"}), as
# Anthropic's guide to fine-tuning Claude on Bedrock and AWS's validation script
# (aws-samples/amazon-bedrock-samples, bedrock-fine-tuning/claude-haiku/DataValidation) state
# them, and Bedrock conversation records (schemaVersion bedrock-conversation-2024, Amazon Nova)
# as the Nova user guide states them.

bedrock_claude_keys := {"system", "messages"}

bedrock_message_keys := {"role", "content"}

# METADATA
# title: bedrock-keys
# description: >-
#   Claude fine-tuning on Bedrock: a record has only system and messages, and a message only
#   role and content ("No extraneous keys are allowed"), so a weight, a name or an id is refused.
#   AWS's validation script does not check it (its models ignore unknown keys); chatlint follows
#   the guide.
# custom:
#   id: bedrock-keys
#   severity: error
#   profiles: [bedrock]
#   formats: [chat]
#   refs:
#     - https://aws.amazon.com/blogs/machine-learning/fine-tune-anthropics-claude-3-haiku-in-amazon-bedrock-to-boost-model-accuracy-and-quality/ (data format, no extraneous keys)
#     - https://docs.aws.amazon.com/bedrock/latest/userguide/model-customization-prepare.html
#   example: |-
#     {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!", "weight": 1}]}
#   fix: >-
#     Remove the other keys (keep metadata in a separate file).
deny contains f if {
	input.profile == "bedrock"
	is_object(input.raw)
	extra := {k | some k, _ in input.raw; not k in bedrock_claude_keys}
	count(extra) > 0
	f := {"rule": "bedrock-keys", "msg": sprintf("the record has keys Claude fine-tuning on Bedrock does not take: %s (only system and messages)", [concat(", ", sort(extra))])}
}

deny contains f if {
	input.profile == "bedrock"
	some i, m in object.get(input.raw, "messages", [])
	is_object(m)
	extra := {k | some k, _ in m; not k in bedrock_message_keys}
	count(extra) > 0
	f := {"rule": "bedrock-keys", "msg": sprintf("message %d has keys Claude fine-tuning on Bedrock does not take: %s (only role and content)", [i, concat(", ", sort(extra))]), "path": sprintf("/messages/%d", [i])}
}

# METADATA
# title: bedrock-record-tokens-estimate
# description: >-
#   Claude fine-tuning on Bedrock: a record fits in 32,000 tokens of Claude's tokenizer, which is
#   not public, so this is AWS's validation script's estimate, copied as it is: the characters
#   of the system prompt and of each message's content, each divided by 3 and rounded down,
#   then summed. Bedrock's own count can differ either way; a record near the limit may pass
#   here and fail there, or the other way.
# custom:
#   id: bedrock-record-tokens-estimate
#   severity: error
#   profiles: [bedrock]
#   formats: [chat]
#   refs:
#     - aws-samples/amazon-bedrock-samples bedrock-fine-tuning/claude-haiku/DataValidation/data_validation.py@60d1ae35debe42bea2e09c5a1c9c9bb710c46e2a (count_tokens, MAX_TOKENS = 32000, CHARS_PER_TOKEN = 3)
#   fix: >-
#     Shorten the conversation or split it into several records.
deny contains f if {
	input.profile == "bedrock"
	tokens := sum([floor(count(s) / 3) | some [_, s] in bedrock_texts])
	tokens > 32000
	f := {"rule": "bedrock-record-tokens-estimate", "msg": sprintf("the record has about %d tokens by AWS's estimate (each text's characters / 3); Claude fine-tuning on Bedrock takes at most 32000", [tokens])}
}

bedrock_texts contains ["system", input.raw.system] if is_string(input.raw.system)

bedrock_texts contains [i, m.content] if {
	some i, m in object.get(input.raw, "messages", [])
	is_string(object.get(m, "content", null))
}

# Bedrock conversation records (Amazon Nova).

nova_ref := "https://docs.aws.amazon.com/nova/latest/nova2-userguide/nova-data-prep-sft-2.html"

nova_keys := {"schemaVersion", "system", "messages", "toolConfig"}

# nova_blocks are the content blocks of a turn, and the roles that may hold each.
nova_blocks := {
	"text": {"user", "assistant"},
	"image": {"user"},
	"video": {"user"},
	"document": {"user"},
	"toolResult": {"user"},
	"toolUse": {"assistant"},
	"reasoningContent": {"assistant"},
}

# METADATA
# title: nova-record
# description: >-
#   Bedrock conversation records (Amazon Nova): the record has no key besides schemaVersion,
#   system, messages and toolConfig, a message none besides role and content; system, when
#   given, is a list of {"text": string} blocks. schemaVersion may be any string (the Nova
#   guide's "schemaVersion can be any string value"; AWS's validator: an optional string).
# custom:
#   id: nova-record
#   severity: error
#   profiles: [bedrock]
#   formats: [bedrock-conversation]
#   refs:
#     - https://docs.aws.amazon.com/nova/latest/nova2-userguide/nova-data-prep-sft-2.html
#     - https://docs.aws.amazon.com/bedrock/latest/userguide/nova-2-sft-data-prep.html
#     - https://docs.aws.amazon.com/nova/latest/userguide/fine-tune-prepare-data-understanding.html (schemaVersion any string)
#   example: |-
#     {"schemaVersion": "bedrock-conversation-2024", "system": "Be brief.", "messages": [{"role": "user", "content": [{"text": "Hi"}]}, {"role": "assistant", "content": [{"text": "Hello!"}]}]}
#   fix: >-
#     Write the system prompt as [{"text": "..."}], and keep other data out of the record.
deny contains f if {
	input.profile == "bedrock"
	input.format == "bedrock-conversation"
	some [problem, path] in nova_record_problems
	f := {"rule": "nova-record", "msg": sprintf("the record %s", [problem]), "path": path}
}

nova_record_problems contains [sprintf("has keys a Bedrock conversation record does not take: %s", [concat(", ", sort(extra))]), ""] if {
	extra := {k | some k, _ in input.raw; not k in nova_keys}
	count(extra) > 0
}

nova_record_problems contains [sprintf("has message %d with keys a Bedrock conversation message does not take: %s", [i, concat(", ", sort(extra))]), sprintf("/messages/%d", [i])] if {
	some i, m in input.raw.messages
	is_object(m)
	extra := {k | some k, _ in m; not k in {"role", "content"}}
	count(extra) > 0
}

nova_record_problems contains [sprintf("has a system that is %s, not a list of {\"text\": ...} blocks", [type_name(input.raw.system)]), "/system"] if {
	"system" in object.keys(input.raw)
	not nova_system_ok(input.raw.system)
}

nova_system_ok(s) if {
	is_array(s)
	every b in s {
		is_object(b)
		object.keys(b) == {"text"}
		is_string(b.text)
	}
}

# METADATA
# title: nova-content
# description: >-
#   Bedrock conversation records (Amazon Nova): a message's content is a non-empty list of
#   blocks, each an object with one member naming its kind — text (a string), image, video,
#   document and toolResult in user turns, toolUse and reasoningContent in assistant turns.
# custom:
#   id: nova-content
#   severity: error
#   profiles: [bedrock]
#   formats: [bedrock-conversation]
#   refs:
#     - https://docs.aws.amazon.com/nova/latest/nova2-userguide/nova-data-prep-sft-2.html
#     - https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ContentBlock.html
#   example: |-
#     {"schemaVersion": "bedrock-conversation-2024", "messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": [{"type": "text", "text": "Hello!"}]}]}
#   fix: >-
#     Write content as a list of blocks such as [{"text": "..."}].
deny contains f if {
	input.profile == "bedrock"
	input.format == "bedrock-conversation"
	some i, m in input.raw.messages
	is_object(m)
	some problem in nova_content_problems(m)
	f := {"rule": "nova-content", "msg": sprintf("message %d (%s) %s", [i, label(object.get(m, "role", "")), problem]), "path": sprintf("/messages/%d/content", [i])}
}

nova_content_problems(m) := {sprintf("has content that is %s, not a non-empty list of blocks", [type_name(object.get(m, "content", null))])} if {
	not nova_nonempty_list(object.get(m, "content", null))
} else := {p | some j, b in m.content; p := nova_block_problem(j, b, object.get(m, "role", ""))}

nova_nonempty_list(x) if {
	is_array(x)
	count(x) > 0
}

nova_block_problem(j, b, role) := sprintf("has block %d that is not an object with one member naming its kind", [j]) if {
	not is_object(b)
} else := sprintf("has block %d with members %s; a block has exactly one of %s", [j, concat(", ", sort(object.keys(b))), concat(", ", sort(object.keys(nova_blocks)))]) if {
	count(object.keys(b)) != 1
} else := sprintf("has block %d of kind %q, which Bedrock conversation records do not take", [j, k]) if {
	some k, _ in b
	not nova_blocks[k]
} else := sprintf("has a %s block (%d) in a %s turn; it belongs in a %s turn", [k, j, role, concat(" or ", sort(nova_blocks[k]))]) if {
	some k, _ in b
	not role in nova_blocks[k]
} else := sprintf("has text block %d whose text is %s, not a string", [j, type_name(b.text)]) if {
	"text" in object.keys(b)
	not is_string(b.text)
}

# METADATA
# title: nova-turns
# description: >-
#   Bedrock conversation records (Amazon Nova): messages are user and assistant turns that
#   alternate, the first the user's and the last the assistant's ("The first turn must be user,
#   the last must be assistant, and turns must alternate").
# custom:
#   id: nova-turns
#   severity: error
#   profiles: [bedrock]
#   formats: [bedrock-conversation]
#   refs:
#     - https://docs.aws.amazon.com/nova/latest/nova2-userguide/nova-data-prep-sft-2.html
#   example: |-
#     {"schemaVersion": "bedrock-conversation-2024", "messages": [{"role": "user", "content": [{"text": "Hi"}]}, {"role": "user", "content": [{"text": "Anyone?"}]}]}
#   fix: >-
#     Merge consecutive turns of one role; start with the user's, end with the assistant's.
deny contains f if {
	input.profile == "bedrock"
	input.format == "bedrock-conversation"
	some problem in nova_turn_problems
	f := {"rule": "nova-turns", "msg": problem}
}

nova_roles := [object.get(m, "role", null) | some m in input.raw.messages]

nova_turn_problems contains sprintf("message %d has role %s; a turn is the user's or the assistant's", [i, json.marshal(r)]) if {
	some i, r in nova_roles
	not r in {"user", "assistant"}
}

nova_turn_problems contains "the record has no messages" if count(nova_roles) == 0

nova_turn_problems contains sprintf("the conversation starts with a turn of role %s; it must start with the user's", [json.marshal(nova_roles[0])]) if {
	count(nova_roles) > 0
	nova_roles[0] != "user"
}

nova_turn_problems contains sprintf("the conversation ends on a turn of role %s; it must end on the assistant's", [json.marshal(r)]) if {
	count(nova_roles) > 0
	r := nova_roles[count(nova_roles) - 1]
	r != "assistant"
}

nova_turn_problems contains sprintf("messages %d and %d are both %s turns; turns alternate", [i - 1, i, r]) if {
	some i in numbers.range(1, count(nova_roles) - 1)
	r := nova_roles[i]
	r == nova_roles[i - 1]
	r in {"user", "assistant"}
}

# nova_validator is AWS's dataset validator for Nova fine-tuning on Bedrock, the source of the
# media limits below (its Message and ConverseDatasetSample models, MAX_NUM_IMAGES and the
# format lists).
nova_validator := "aws-samples/amazon-nova-samples customization/bedrock-finetuning/understanding/dataset_validation/nova_ft_dataset_validator.py@1e88f2450a00a3a24933765ae96159a55ad02a90"

# nova_media_formats are the formats each kind of media block may name.
nova_media_formats := {
	"image": {"jpeg", "png", "gif", "webp"},
	"video": {"mov", "mkv", "mp4", "webm"},
	"document": {"pdf"},
}

# nova_media lists the record's media blocks: [message index, block index, kind, block].
nova_media contains [i, j, k, b[k]] if {
	some i, m in input.raw.messages
	is_object(m)
	some j, b in object.get(m, "content", [])
	is_object(b)
	some k, _ in b
	nova_media_formats[k]
}

nova_count(kind) := count([1 | some [_, _, k, _] in nova_media; k == kind])

# METADATA
# title: nova-media
# description: >-
#   Bedrock conversation records (Amazon Nova): the media a record may hold. A record holds
#   images or a video, not both ("the dataset can either be text with images or text with
#   videos"), at most one video ("One sample can have only 1 video") and at most one document;
#   a message at most 10 images, and no video beside a document; an image is jpeg, png, gif or
#   webp, a video mov, mkv, mp4 or webm, a document pdf, each from an s3:// location
#   (source.s3Location.uri). The guide states the modality and video rules; AWS's validator
#   adds the counts of images and documents and the formats. The guide's rule is per dataset:
#   chatlint checks it within each record.
# custom:
#   id: nova-media
#   severity: error
#   profiles: [bedrock]
#   formats: [bedrock-conversation]
#   refs:
#     - https://docs.aws.amazon.com/nova/latest/userguide/fine-tune-prepare-data-understanding.html (image and video constraints)
#     - aws-samples/amazon-nova-samples customization/bedrock-finetuning/understanding/dataset_validation/nova_ft_dataset_validator.py@1e88f2450a00a3a24933765ae96159a55ad02a90 (Message.validate_content, validate_one_document_per_sample, MAX_NUM_IMAGES = 10)
#   example: |-
#     {"schemaVersion": "bedrock-conversation-2024", "messages": [{"role": "user", "content": [{"text": "Same scene?"}, {"image": {"format": "png", "source": {"s3Location": {"uri": "s3://bucket/a.png"}}}}, {"video": {"format": "mp4", "source": {"s3Location": {"uri": "s3://bucket/b.mp4"}}}}]}, {"role": "assistant", "content": [{"text": "Yes."}]}]}
#   fix: >-
#     Keep images and videos in separate records (and files), one video and one document per
#     record, at most 10 images per message, in the formats listed, stored in S3.
deny contains f if {
	input.profile == "bedrock"
	input.format == "bedrock-conversation"
	some [problem, path] in nova_media_problems
	f := {"rule": "nova-media", "msg": problem, "path": path}
}

nova_media_problems contains [sprintf("the record holds %d images and a video; a Nova fine-tuning record holds images or a video, not both", [nova_count("image")]), ""] if {
	nova_count("image") > 0
	nova_count("video") > 0
}

nova_media_problems contains [sprintf("the record holds %d videos; a Nova fine-tuning record holds at most one", [n]), ""] if {
	n := nova_count("video")
	n > 1
}

nova_media_problems contains [sprintf("the record holds %d documents; a Nova fine-tuning record holds at most one", [n]), ""] if {
	n := nova_count("document")
	n > 1
}

nova_media_problems contains [sprintf("message %d holds %d images; Nova fine-tuning takes at most 10 per message", [i, n]), sprintf("/messages/%d/content", [i])] if {
	some i in {x | some [x, _, "image", _] in nova_media}
	n := count([1 | some [y, _, "image", _] in nova_media; y == i])
	n > 10
}

nova_media_problems contains [sprintf("message %d holds a video and a document; Nova fine-tuning takes a video without images or documents", [i]), sprintf("/messages/%d/content", [i])] if {
	some [i, _, "video", _] in nova_media
	some [d, _, "document", _] in nova_media
	d == i
}

nova_media_problems contains [sprintf("the %s block is %s; want an object with format and source", [k, type_name(v)]), sprintf("/messages/%d/content/%d/%s", [i, j, k])] if {
	some [i, j, k, v] in nova_media
	not is_object(v)
}

nova_media_problems contains [sprintf("the %s block has format %s; Nova fine-tuning takes %s", [k, json.marshal(fmt), concat(", ", sort(nova_media_formats[k]))]), sprintf("/messages/%d/content/%d/%s/format", [i, j, k])] if {
	some [i, j, k, v] in nova_media
	is_object(v)
	fmt := object.get(v, "format", null)
	not lower_in(fmt, nova_media_formats[k])
}

nova_media_problems contains [sprintf("the %s block's source is not an S3 location (source.s3Location.uri starting with s3://); Nova fine-tuning reads media from S3", [k]), sprintf("/messages/%d/content/%d/%s/source", [i, j, k])] if {
	some [i, j, k, v] in nova_media
	is_object(v)
	not s3_uri(object.get(v, ["source", "s3Location", "uri"], null))
}

lower_in(s, set) if {
	is_string(s)
	lower(s) in set
}

s3_uri(u) if {
	is_string(u)
	startswith(u, "s3://")
}

# METADATA
# title: nova-reserved-text
# description: >-
#   Bedrock conversation records (Amazon Nova): AWS's Nova validator refuses a text that
#   contains, in any letter case, a word the model's prompt template reserves: System:, User:,
#   Bot:, Assistant:, Thought:, <image>, <video> or <unk>. It applies to every text block of a
#   message, every system text and every reasoning text. (The validator's list also names
#   [EOS], but a missing comma in it joins [EOS] to the word before, so it refuses [EOS] only as
#   part of "thought:thought:[eos]"; chatlint follows what the validator does.)
# custom:
#   id: nova-reserved-text
#   severity: error
#   profiles: [bedrock]
#   formats: [bedrock-conversation]
#   refs:
#     - aws-samples/amazon-nova-samples customization/bedrock-finetuning/understanding/dataset_validation/nova_ft_dataset_validator.py@1e88f2450a00a3a24933765ae96159a55ad02a90 (INVALID_TOKENS_TEXT, validate_invalid_tokens)
#   example: |-
#     {"schemaVersion": "bedrock-conversation-2024", "messages": [{"role": "user", "content": [{"text": "User: what is 2+2?"}]}, {"role": "assistant", "content": [{"text": "4"}]}]}
#   fix: >-
#     Write the conversation as messages with roles instead of "User:" / "Assistant:" labels in
#     the text, and leave out the template's own markers.
deny contains f if {
	input.profile == "bedrock"
	input.format == "bedrock-conversation"
	some [text, path] in nova_texts
	words := [w | some w in nova_reserved; contains(lower(text), w)]
	count(words) > 0
	f := {"rule": "nova-reserved-text", "msg": sprintf("the text holds %s, which Nova's fine-tuning validator refuses in any letter case", [concat(", ", words)]), "path": path}
}

# nova_reserved are the words AWS's validator finds in a text, lower-cased as it compares them,
# in its list's order (the joined strings its list holds are left out: each contains one of
# these, so they refuse nothing more).
nova_reserved := ["system:", "user:", "bot:", "assistant:", "thought:", "<image>", "<video>", "<unk>"]

# nova_texts are the record's texts the validator reads: [text, its JSON Pointer].
nova_texts contains [b.text, sprintf("/messages/%d/content/%d/text", [i, j])] if {
	some i, m in input.raw.messages
	is_object(m)
	some j, b in object.get(m, "content", [])
	is_object(b)
	is_string(b.text)
}

nova_texts contains [t, sprintf("/messages/%d/content/%d/reasoningContent/reasoningText/text", [i, j])] if {
	some i, m in input.raw.messages
	is_object(m)
	some j, b in object.get(m, "content", [])
	is_object(b)
	t := object.get(b, ["reasoningContent", "reasoningText", "text"], null)
	is_string(t)
}

nova_texts contains [s.text, sprintf("/system/%d/text", [i])] if {
	some i, s in object.get(input.raw, "system", [])
	is_object(s)
	is_string(s.text)
}
