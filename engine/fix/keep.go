package fix

import "github.com/chatlint/chatlint/engine/policy"

// OpKeepRecord asks that the record (or session) be left exactly as it is:
// a rule found pieces the pack cannot read, and changing what is only half
// understood would lose data. It wins over every other action of the pass;
// Run then returns a *KeptError and the caller writes the record as it was,
// with the rule's reason as a note.
const OpKeepRecord = "keep_record"

// KeptError is a record a rule asked to leave as it was.
type KeptError struct{ Action policy.Action }

func (e *KeptError) Error() string {
	return e.Action.Reason + "; the record was left as it was"
}

// kept returns the first keep_record action, in the order the rules gave
// them, or nil.
func kept(ops []*op) *KeptError {
	for _, o := range ops {
		if o.Op == OpKeepRecord {
			return &KeptError{Action: o.Action}
		}
	}
	return nil
}
