package lint

import (
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/rule"
)

// Rules the reader itself reports: they are about bytes, not conversations,
// so they live in Go rather than in a pack.
const (
	RuleSyntax       = "jsonl-syntax"
	RuleUnrecognized = "unrecognized-format"
	RulePolicyError  = "policy-error"
	CorePack         = "core"
)

// CoreRules describes the rules the reader reports.
var CoreRules = []rule.Rule{
	{ID: RuleSyntax, Severity: finding.Error, Pack: CorePack, Kind: "go", Source: "engine/lint/core.go",
		Description: "A line is not valid JSON, not a JSON object, or not valid UTF-8. The rest of the file is still checked."},
	{ID: RuleUnrecognized, Severity: finding.Error, Pack: CorePack, Kind: "go", Source: "engine/lint/core.go",
		Description: "The file's first record matches none of the input formats (" + document.FormatNames() + "); it is reported once and its records are only checked for syntax. Use --format to force a format."},
	{ID: RulePolicyError, Severity: finding.Error, Pack: CorePack, Kind: "go", Source: "engine/lint/core.go",
		Description: "A policy failed while evaluating a document (for example a builtin error or the per-record time limit)."},
}

func coreFinding(rule, file string, line int, msg string) finding.Finding {
	return finding.Finding{Rule: rule, Severity: finding.Error, Message: msg, File: file, Line: line, Pack: CorePack}
}

// SyntaxFinding is the finding for bytes that are not a JSON record, for
// readers that find such a line themselves (a .json document's parse error).
func SyntaxFinding(file string, line int, msg string) finding.Finding {
	return coreFinding(RuleSyntax, file, line, msg)
}
