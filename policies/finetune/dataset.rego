package chatlint.finetune

# Dataset rules: evaluated once per file, after its records, over the file's dataset document
# (docs/document.md#the-dataset-document): record counts, record types, duplicate copies.

# min_examples[p] is the fewest examples a file may hold under a provider profile.
min_examples["openai"] := 10

min_examples["bedrock"] := 32

# METADATA
# title: dataset-too-few-examples
# description: >-
#   The file has fewer examples than the provider trains on: OpenAI requires at least 10
#   examples (50 to 100 well-made ones are where it usually starts to help); AWS's validation
#   script for Claude fine-tuning on Bedrock wants between 32 and 10,000 lines in a training
#   file. The job is refused, so an error; an empty file is file-empty's finding.
# custom:
#   id: dataset-too-few-examples
#   severity: error
#   profiles: [openai, bedrock]
#   refs:
#     - https://platform.openai.com/docs/guides/supervised-fine-tuning ("you are required to provide at least 10 examples")
#     - aws-samples/amazon-bedrock-samples bedrock-fine-tuning/claude-haiku/DataValidation/data_validation.py (MIN_LINES = 32)
#   fix: >-
#     Add examples (or merge the file with the rest of its set before the upload).
dataset_deny contains f if {
	n := min_examples[input.profile]
	counted
	input.records > 0
	input.records < n
	f := {"rule": "dataset-too-few-examples", "msg": sprintf("the file has %d examples; %s fine-tuning needs at least %d", [input.records, input.profile, n])}
}

# counted holds for a file whose example counts the profile's limits are about: Bedrock's 32 to
# 10,000 are those of Claude's records (chat), not of Amazon Nova's or of other models'.
counted if input.profile != "bedrock"

counted if input.format == "chat"

# max_examples[p] is the most examples a file may hold under a provider profile.
max_examples["bedrock"] := 10000

# METADATA
# title: dataset-too-many-examples
# description: >-
#   The file has more examples than the provider takes in one training file (Bedrock's Claude
#   fine-tuning: at most 10,000 records in the training dataset; a job whose file holds more is
#   not started). An error: split the file or sample it down.
# custom:
#   id: dataset-too-many-examples
#   severity: error
#   profiles: [bedrock]
#   refs:
#     - aws-samples/amazon-bedrock-samples bedrock-fine-tuning/claude-haiku/DataValidation/data_validation.py (MAX_TRAINING_LINES = 10000)
#   fix: >-
#     Keep at most 10,000 records in the training file (sample it, or train on parts in turn).
dataset_deny contains f if {
	n := max_examples[input.profile]
	counted
	input.records > n
	f := {"rule": "dataset-too-many-examples", "msg": sprintf("the file has %d examples; %s fine-tuning takes at most %d", [input.records, input.profile, n])}
}

# METADATA
# title: dataset-record-types-mixed
# description: >-
#   The file mixes record types: chat SFT (messages), preference (input, preferred_output,
#   non_preferred_output) and prompt/completion records. OpenAI takes one kind of example per
#   training file, as the fine-tuning method decides the format; Together's file check takes one
#   format per file (conversational, instruction or text).
# custom:
#   id: dataset-record-types-mixed
#   severity: error
#   profiles: [openai, together]
#   refs:
#     - https://platform.openai.com/docs/guides/supervised-fine-tuning
#     - togethercomputer/together-python src/together/utils/files.py@0890d35ff2b79b91bba7736d908a7ab58b806c10 (_check_jsonl, one dataset format)
dataset_deny contains f if {
	count(input.record_types) > 1
	first := min({l | some l in input.record_type_lines})
	some t, l in input.record_type_lines
	l != first
	f := {
		"rule": "dataset-record-types-mixed",
		"msg": sprintf("the first %s record of a file that mixes record types (%s); a training file holds one record type", [t, types_seen]),
		"line": l,
	}
}

types_seen := concat(", ", sort([sprintf("%s: %d", [t, n]) | some t, n in input.record_types]))

# METADATA
# title: dataset-duplicate
# description: >-
#   The example is an exact copy of an earlier one in the file (the same record once the id is
#   left out and keys are put in order). Duplicates weigh an example twice and leak between
#   training and validation splits; OpenAI's data-preparation notebook checks for them. Every later
#   copy is reported, naming the line of the first.
# custom:
#   id: dataset-duplicate
#   severity: warning
#   profiles: [openai, mistral, together, bedrock]
dataset_warn contains f if {
	some d in input.duplicates
	f := {"rule": "dataset-duplicate", "msg": sprintf("the example duplicates the one at line %d", [d.first_line]), "line": d.line}
}

# provider_types[p] are the record types a provider's fine-tuning takes (the dataset document's
# record_types): OpenAI chat, preference and, for its legacy models, prompt/completion;
# Together its four formats; mistral-finetune instruct (chat, or its interactions) and
# pretraining (text) data;
# Bedrock Claude's and Nova's chat records and other models' prompt/completion.
provider_types := {
	"openai": {"chat", "preference", "prompt_completion"},
	"together": {"chat", "preference", "prompt_completion", "text"},
	"mistral": {"chat", "interactions", "text"},
	"bedrock": {"chat", "prompt_completion"},
}

provider_formats_note := {
	"openai": "chat, preference (DPO) or prompt/completion records",
	"together": "conversational, preference, instruction (prompt/completion) or text records",
	"mistral": "instruct (messages or interactions) or pretraining (text) records",
	"bedrock": "Claude {system, messages}, Bedrock conversation (Nova) or prompt/completion records",
}

type_word(t) := "non-fine-tuning" if t == "other"

else := t

# METADATA
# title: provider-format
# description: >-
#   The file's records are of a kind the provider's fine-tuning does not take: OpenAI takes
#   chat, preference (DPO) and prompt/completion records; Together its conversational,
#   preference, instruction and text formats; mistral-finetune instruct (messages) and
#   pretraining (text) data; Bedrock Claude's {system, messages}, Nova's Bedrock conversation
#   records and prompt/completion records. Alpaca, ShareGPT, Gemini, agent transcripts and logs
#   must be converted first; a Bedrock conversation record is Bedrock's alone.
# custom:
#   id: provider-format
#   severity: error
#   profiles: [openai, mistral, together, bedrock]
#   refs:
#     - https://platform.openai.com/docs/guides/supervised-fine-tuning
#     - togethercomputer/together-python src/together/constants.py (JSONL_REQUIRED_COLUMNS_MAP)
#     - mistralai/mistral-finetune finetune/data/tokenize.py@20704b220d6f08ce1213387f593282f4f60e3fa1 (build_instruct_sample, get_pretrain_sample)
#     - https://docs.aws.amazon.com/bedrock/latest/userguide/model-customization-prepare.html
#   fix: >-
#     Convert the file (chatlint convert --to openai writes OpenAI chat records from any format).
dataset_deny contains f if {
	accepted := provider_types[input.profile]
	some t, l in input.record_type_lines
	not t in accepted
	f := {
		"rule": "provider-format",
		"msg": sprintf("the file holds %s records (read as %s, the first at this line); %s fine-tuning takes %s", [type_word(t), input.format, input.profile, provider_formats_note[input.profile]]),
		"line": l,
	}
}

dataset_deny contains f if {
	input.profile != "bedrock"
	provider_types[input.profile]
	input.format == "bedrock-conversation"
	f := {
		"rule": "provider-format",
		"msg": sprintf("the file holds Bedrock conversation records (schemaVersion bedrock-conversation-2024), which only Bedrock takes; %s fine-tuning takes %s", [input.profile, provider_formats_note[input.profile]]),
	}
}
