package chatlint.finetune_test

import data.chatlint.finetune

# Bedrock's maximum is 10,000 training records: a file of exactly 10,000 passes.
test_bedrock_at_most_10000 if {
	count({f | some f in finetune.dataset_deny; f.rule == "dataset-too-many-examples"}) == 0 with input as {"profile": "bedrock", "format": "chat", "records": 10000}
	some f in finetune.dataset_deny with input as {"profile": "bedrock", "format": "chat", "records": 10001}
	f.rule == "dataset-too-many-examples"
	f.msg == "the file has 10001 examples; bedrock fine-tuning takes at most 10000"
}

# Under another profile there is no maximum.
test_no_maximum_under_openai if {
	count({f | some f in finetune.dataset_deny; f.rule == "dataset-too-many-examples"}) == 0 with input as {"profile": "openai", "records": 1000000}
}

# The default number of epochs, as OpenAI's data-preparation notebook states it.
test_default_epochs if {
	finetune.default_epochs(5) == 20
	finetune.default_epochs(1) == 25
	finetune.default_epochs(103) == 3
	finetune.default_epochs(10000) == 2
	finetune.default_epochs(100000) == 1
}

# Bedrock's counts are those of Claude's records: a Bedrock conversation (Nova) file is not
# held to them.
test_bedrock_counts_claude_only if {
	count({f | some f in finetune.dataset_deny; f.rule in {"dataset-too-many-examples", "dataset-too-few-examples"}}) == 0 with input as {"profile": "bedrock", "format": "bedrock-conversation", "records": 10001}
	count({f | some f in finetune.dataset_deny; f.rule in {"dataset-too-many-examples", "dataset-too-few-examples"}}) == 0 with input as {"profile": "bedrock", "format": "bedrock-conversation", "records": 3}
}
