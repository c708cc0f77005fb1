package policy

import (
	"github.com/chatlint/chatlint/engine/finding"
)

// Rule describes one rule of a pack.
type Rule struct {
	ID          string           `json:"id"`
	Title       string           `json:"title,omitempty"`
	Severity    finding.Severity `json:"severity"`
	Pack        string           `json:"pack"`
	Kind        string           `json:"kind"` // "rego" or "yaml"
	Description string           `json:"description"`
	// Example is a record that breaks the rule; Fix says how to mend the data.
	Example string `json:"example,omitempty"`
	Fix     string `json:"fix,omitempty"`
	// Source is the file:line where the rule is declared.
	Source string `json:"source"`
}

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
