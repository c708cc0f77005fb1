package pack

import (
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
)

// Hit is a finding as a rule reports it, before it is placed in a file.
type Hit struct {
	Rule     string
	Pack     string
	Severity finding.Severity
	Message  string
	// Target is the element the rule names ("" for the whole document).
	Target document.Target
	Path   string
	// Line is the line a dataset rule's finding names (its "line"); 0 when
	// it names none.
	Line int
}

func NewHit(rule, pack string, sev finding.Severity, msg string) Hit {
	return Hit{Rule: rule, Pack: pack, Severity: sev, Message: msg}
}
