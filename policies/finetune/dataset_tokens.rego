package chatlint.finetune

# The token-cost rule: the one rule of the pack that reads the dataset document's token summary
# (input.tokens), kept in a file of its own so that only a run under its profile tokenizes its
# records for the fold (chatlint counts tokens for the fold only when a dataset rule whose module
# reads input.tokens applies under the run's profile).

# default_epochs(n) is the number of epochs OpenAI's fine-tuning chooses for n examples when none
# is given, as its data-preparation notebook states it: 3, raised so that a small file is seen
# about 100 times in all (at most 25 epochs), lowered so that a large one is seen about 25,000
# times (at least 1).
default_epochs(n) := min([25, floor(100 / n)]) if n * 3 < 100

else := max([1, floor(25000 / n)]) if n * 3 > 25000

else := 3

# METADATA
# title: dataset-token-cost
# description: >-
#   What training on the file costs, for the model of the run (--model, or the table's default):
#   the tokens of its examples (min, median, p95, max), the tokens a job bills for the number of
#   epochs OpenAI's fine-tuning chooses by default (its data-preparation notebook: 3, more for a
#   small file, fewer for a large one; each example counted up to the model's limit, as longer
#   ones are truncated) and the price from the pack's model table. Information, not a defect.
# custom:
#   id: dataset-token-cost
#   severity: info
#   profiles: [openai]
dataset_info contains f if {
	t := input.tokens
	t.examples > 0
	m := input.model
	epochs := default_epochs(t.examples)
	billed := t.billable * epochs
	cents := round((billed * m.price_per_million) / 10000)
	f := {"rule": "dataset-token-cost", "msg": sprintf(
		"%d examples of %d tokens in all (min %d, median %d, p95 %d, max %d; %d over %s's limit of %d); %d epochs bill about %d tokens, about $%d.%02d",
		[t.examples, t.total, t.min, t.median, t.p95, t.max, t.over_limit, m.name, m.limit, epochs, billed, floor(cents / 100), cents % 100],
	)}
}
