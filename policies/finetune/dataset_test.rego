package chatlint.finetune_test

import data.chatlint.finetune

# Bedrock's maximum is 10,000 training records: a file of exactly 10,000 passes.
test_bedrock_at_most_10000 if {
	count({f | some f in finetune.dataset_deny; f.rule == "dataset-too-many-examples"}) == 0 with input as {"profile": "bedrock", "format": "chat", "records": 10000}
	some f in finetune.dataset_deny with input as {"profile": "bedrock", "format": "chat", "records": 10001}
	f.rule == "dataset-too-many-examples"
	f.msg == "the file has 10001 examples; Claude fine-tuning on Bedrock takes at most 10000"
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

# Amazon Nova's counts on Bedrock are 8 to 20,000 records (AWS's Nova validator), not Claude's.
test_bedrock_nova_counts if {
	nova_counts(8) == set()
	nova_counts(20000) == set()
	nova_counts(7) == {"the file has 7 examples; Amazon Nova fine-tuning on Bedrock needs at least 8"}
	nova_counts(20001) == {"the file has 20001 examples; Amazon Nova fine-tuning on Bedrock takes at most 20000"}
}

nova_counts(n) := msgs if {
	msgs := {f.msg | some f in finetune.dataset_deny; f.rule in {"dataset-too-many-examples", "dataset-too-few-examples"}} with input as {"profile": "bedrock", "format": "bedrock-conversation", "records": n}
}

# Bedrock's other models' prompt/completion records are held to no count.
test_bedrock_prompt_completion_not_counted if {
	count({f | some f in finetune.dataset_deny; f.rule in {"dataset-too-many-examples", "dataset-too-few-examples"}}) == 0 with input as {"profile": "bedrock", "format": "instruction", "records": 20001}
}
