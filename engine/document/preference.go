package document

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// Preference (DPO) records, as OpenAI's preference fine-tuning and
// Together's preference format take them: {"input": {"messages", "tools"},
// "preferred_output": [message], "non_preferred_output": [message]}. The
// document's conversation is the input's messages (paths
// /input/messages/i); the two outputs stay in raw, where the providers'
// rules judge them.
//
// Detected by an input object beside either output, so that a record whose
// outputs are broken is still a preference record (its rules say what is
// wrong) rather than no format at all.
var preferenceAdapter = &Adapter{
	Format:  Preference,
	Summary: `preference (DPO) records: {"input": {"messages", "tools"}, "preferred_output", "non_preferred_output"}`,
	Detect: func(rec ast.Object) bool {
		return objectField(rec, keyInput) != nil && (get(rec, keyPreferred) != nil || get(rec, keyNonPreferred) != nil)
	},
	Shape: "an input object and a preferred_output or non_preferred_output",
	// Its input messages are OpenAI chat messages: the same tool-message
	// rules, as when these records were read as chat.
	Cleanup: []string{"openai-tools"},
	NewBuilder: func(file string, opts Options) Builder {
		return recordBuilder{format: Preference, file: file, opts: opts}
	},
	rebuilds: true,
}

var (
	keyPreferred    = ast.StringTerm("preferred_output")
	keyNonPreferred = ast.StringTerm("non_preferred_output")
)
