package chatlint.finetune

# File rules of the provider profiles: what a provider's loader refuses in a file before it
# looks at any record. Each provider reads a training file a line at a time with Python's
# json.loads (together-python's check_file, mistral-finetune's validate_data.py, AWS's Bedrock
# validation script, OpenAI's cookbook), which fails on an empty line and on a UTF-8
# byte-order mark; chatlint's reader accepts both, and the default profile keeps accepting
# them. The facts come from the file's dataset document (bom, blank_lines, records).

# METADATA
# title: file-empty
# description: >-
#   The training file holds no record. Every provider refuses it: together-python's check_file
#   reports "File is empty", OpenAI's upload and AWS's Bedrock validation want at least 10 and
#   32 examples, mistral-finetune has no example to train on.
# custom:
#   id: file-empty
#   severity: error
#   profiles: [openai, mistral, together, bedrock]
#   refs:
#     - togethercomputer/together-python src/together/utils/files.py@0890d35ff2b79b91bba7736d908a7ab58b806c10 (check_file, "File is empty")
#     - https://platform.openai.com/docs/guides/supervised-fine-tuning (at least 10 examples)
#     - aws-samples/amazon-bedrock-samples bedrock-fine-tuning/claude-haiku/DataValidation/data_validation.py (between 32 and 10000 lines)
#   fix: >-
#     Write the examples into the file, or leave it out of the upload.
dataset_deny contains f if {
	provider
	input.records == 0
	f := {"rule": "file-empty", "msg": sprintf("the file holds no record; %s fine-tuning refuses an empty training file", [input.profile])}
}

# METADATA
# title: file-bom
# description: >-
#   The file starts with a UTF-8 byte-order mark. Providers read each line with Python's
#   json.loads, which refuses a document that starts with one ("Unexpected UTF-8 BOM"), so the
#   first example fails to load. chatlint's reader skips the mark under the default profile.
# custom:
#   id: file-bom
#   severity: error
#   profiles: [openai, mistral, together, bedrock]
#   refs:
#     - togethercomputer/together-python src/together/utils/files.py@0890d35ff2b79b91bba7736d908a7ab58b806c10 (_check_jsonl, json.loads per line)
#     - mistralai/mistral-finetune utils/validate_data.py@0e24c534180df084277b4a6aac6092fee107167d (json.loads per line)
#   fix: >-
#     Save the file as UTF-8 without a byte-order mark (sed -i '1s/^\xEF\xBB\xBF//' FILE).
dataset_deny contains f if {
	provider
	input.bom
	f := {"rule": "file-bom", "msg": "the file starts with a UTF-8 byte-order mark, which the provider's JSON loader refuses", "line": 1}
}

# METADATA
# title: file-blank-line
# description: >-
#   A line of the file is empty or white space only. Providers parse every line as one JSON
#   example (together-python: "Error parsing json payload"; mistral-finetune: "is incorrectly
#   formatted"; AWS's Bedrock script: "Invalid JSON"), so a blank line between or after the
#   examples fails the file. chatlint's reader skips blank lines under the default profile.
# custom:
#   id: file-blank-line
#   severity: error
#   profiles: [openai, mistral, together, bedrock]
#   refs:
#     - togethercomputer/together-python src/together/utils/files.py@0890d35ff2b79b91bba7736d908a7ab58b806c10 (_check_jsonl)
#     - mistralai/mistral-finetune utils/validate_data.py@0e24c534180df084277b4a6aac6092fee107167d
#     - aws-samples/amazon-bedrock-samples bedrock-fine-tuning/claude-haiku/DataValidation/data_validation.py
#   fix: >-
#     Remove the blank lines (grep -v '^[[:space:]]*$' FILE).
dataset_deny contains f if {
	provider
	some l in input.blank_lines
	f := {"rule": "file-blank-line", "msg": blank_msg, "line": l}
}

blank_msg := sprintf("the line is blank; %s fine-tuning parses every line as a JSON example", [input.profile]) if input.blank_line_count <= count(input.blank_lines)

else := sprintf("the line is blank (one of %d blank lines; the first %d are listed); %s fine-tuning parses every line as a JSON example", [input.blank_line_count, count(input.blank_lines), input.profile])
