package policy

import (
	"github.com/chatlint/chatlint/engine/finding"
)

// Hit is a finding as a rule reports it, before it is placed in a file.
// An index of -1 means the rule did not name that element.
type Hit struct {
	Rule          string
	Pack          string
	Severity      finding.Severity
	Message       string
	MessageIndex  int
	ToolCallIndex int
	ToolIndex     int
	EntryIndex    int
	Path          string
}

func newHit(rule, pack string, sev finding.Severity, msg string) Hit {
	return Hit{Rule: rule, Pack: pack, Severity: sev, Message: msg, MessageIndex: -1, ToolCallIndex: -1, ToolIndex: -1, EntryIndex: -1}
}
