package pack

import "strings"

// CompileError is a policy that does not parse or compile.
type CompileError struct {
	Errors []string // each "file:line:col: message"
}

func (e *CompileError) Error() string { return strings.Join(e.Errors, "\n") }

// KindCleanup is the pack kind (pack.yaml `kind: cleanup`) of packs whose
// rules produce actions for fix; check does not load them by default.
const KindCleanup = "cleanup"
