package chatlint.finetune

# Dataset rules: evaluated once per file, after its records, over the file's dataset document
# (docs/document.md#the-dataset-document): record counts, record types, duplicate copies.

# example_counts[[profile, format]] are the fewest and the most examples a training file may
# hold under a provider profile, for a file of that format ("*": any format): OpenAI's minimum
# of 10; Bedrock's 32 to 10,000 of Claude's records (chat) and 8 to 20,000 of Amazon Nova's
# (bedrock-conversation). Bedrock's other models' prompt/completion records are not counted.
example_counts[["openai", "*"]] := {"min": 10, "who": "openai fine-tuning"}

example_counts[["bedrock", "chat"]] := {"min": 32, "max": 10000, "who": "Claude fine-tuning on Bedrock"}

example_counts[["bedrock", "bedrock-conversation"]] := {"min": 8, "max": 20000, "who": "Amazon Nova fine-tuning on Bedrock"}

# counts are the limits that hold for this file.
counts := c if {
	c := example_counts[[input.profile, input.format]]
} else := example_counts[[input.profile, "*"]]

# METADATA
# title: dataset-too-few-examples
# description: >-
#   The file has fewer examples than the provider trains on: OpenAI requires at least 10
#   examples (50 to 100 well-made ones are where it usually starts to help); AWS's validation
#   script for Claude fine-tuning on Bedrock wants between 32 and 10,000 lines in a training
#   file, AWS's validator for Amazon Nova on Bedrock between 8 and 20,000 records. The job is
#   refused, so an error; an empty file is file-empty's finding.
# custom:
#   id: dataset-too-few-examples
#   severity: error
#   profiles: [openai, bedrock]
#   refs:
#     - https://platform.openai.com/docs/guides/supervised-fine-tuning ("you are required to provide at least 10 examples")
#     - aws-samples/amazon-bedrock-samples bedrock-fine-tuning/claude-haiku/DataValidation/data_validation.py (MIN_LINES = 32)
#     - aws-samples/amazon-nova-samples customization/bedrock-finetuning/understanding/dataset_validation/nova_ft_dataset_validator.py@1e88f2450a00a3a24933765ae96159a55ad02a90 (MODEL_TO_NUM_SAMPLES_MAP, 8 to 20000 samples)
#   fix: >-
#     Add examples (or merge the file with the rest of its set before the upload).
dataset_deny contains f if {
	n := counts.min
	input.records > 0
	input.records < n
	f := {"rule": "dataset-too-few-examples", "msg": sprintf("the file has %d examples; %s needs at least %d", [input.records, counts.who, n])}
}

# METADATA
# title: dataset-too-many-examples
# description: >-
#   The file has more examples than the provider takes in one training file (Claude on
#   Bedrock: at most 10,000 records; Amazon Nova on Bedrock: at most 20,000); a job whose file
#   holds more is not started. An error: split the file or sample it down.
# custom:
#   id: dataset-too-many-examples
#   severity: error
#   profiles: [bedrock]
#   refs:
#     - aws-samples/amazon-bedrock-samples bedrock-fine-tuning/claude-haiku/DataValidation/data_validation.py (MAX_TRAINING_LINES = 10000)
#     - aws-samples/amazon-nova-samples customization/bedrock-finetuning/understanding/dataset_validation/nova_ft_dataset_validator.py@1e88f2450a00a3a24933765ae96159a55ad02a90 (MODEL_TO_NUM_SAMPLES_MAP, 8 to 20000 samples)
#   fix: >-
#     Keep at most the provider's maximum in the training file (sample it, or train on parts in turn).
dataset_deny contains f if {
	n := counts.max
	input.records > n
	f := {"rule": "dataset-too-many-examples", "msg": sprintf("the file has %d examples; %s takes at most %d", [input.records, counts.who, n])}
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
