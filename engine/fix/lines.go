package fix

import (
	"bytes"
	"fmt"

	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/policy"
)

// OpDropLine is what fix does itself, before any rule runs, with a line
// that is JSON but not an object ([1, 2], "x", 42): it is no record of any
// format (check reports it as jsonl-syntax), so no rule can name it, and
// keeping it would leave the output as broken as the input. The line goes
// to the rejects file as it was. A line that is not JSON at all stays where
// it is: it cannot be a rejects line's data, and repair is the command that
// drops it.
const OpDropLine = "drop_line"

// dropNonObjects takes the lines that are JSON but not objects out of recs,
// as rejects and the actions that say so (rule jsonl-syntax, the rule check
// reports them under).
func dropNonObjects(recs []jsonl.Record) ([]jsonl.Record, []Reject, []policy.Action) {
	var kept []jsonl.Record
	var rejects []Reject
	var acts []policy.Action
	for i, r := range recs {
		what, ok := jsonl.NonObject(r.Data)
		if !ok {
			if kept != nil {
				kept = append(kept, r)
			}
			continue
		}
		if kept == nil {
			kept = append(make([]jsonl.Record, 0, len(recs)), recs[:i]...)
		}
		reason := fmt.Sprintf("a record must be a JSON object, not %s", what)
		rejects = append(rejects, Reject{Line: r.Line, Rule: lint.RuleSyntax, Reason: reason, Op: OpDropLine, Data: bytes.TrimSpace(r.Data)})
		acts = append(acts, policy.Action{Op: OpDropLine, Rule: lint.RuleSyntax, Reason: reason})
	}
	if kept == nil && rejects == nil {
		return recs, nil, nil
	}
	return kept, rejects, acts
}
