package lint

import (
	"fmt"
	"strconv"

	"github.com/chatlint/chatlint/engine/astjson"
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
	RuleMismatch     = "format-mismatch"
	RuleLineTooLong  = "line-too-long"
	RuleTooDense     = "record-too-dense"
	RuleNotJSONL     = "not-jsonl"
	CorePack         = "core"
)

// CoreRules describes the rules the reader reports.
var CoreRules = []rule.Rule{
	{ID: RuleSyntax, Severity: finding.Error, Pack: CorePack, Kind: "go", Source: "engine/lint/core.go",
		Description: "A line is not valid JSON, not a JSON object, or not valid UTF-8. The rest of the file is still checked."},
	{ID: RuleUnrecognized, Severity: finding.Error, Pack: CorePack, Kind: "go", Source: "engine/lint/core.go",
		Description: "None of the file's leading records (up to 16, from its first JSON object) matches any of the input formats (" + document.FormatNames() + "); it is reported once, on the first object, and the file's records are only checked for syntax. Use --format to force a format."},
	{ID: RulePolicyError, Severity: finding.Error, Pack: CorePack, Kind: "go", Source: "engine/lint/core.go",
		Description: "A policy failed while evaluating a document (for example a builtin error or the per-record time limit), or produced a malformed finding: an undeclared rule id, a msg that is not a string, an unknown severity, or a target the document does not have. The message names the rule and the record."},
	{ID: RuleMismatch, Severity: finding.Error, Pack: CorePack, Kind: "go", Source: "engine/lint/core.go",
		Description: "A record (for a session format, the file's first line) does not have the shape of the file's format: with --format forced, it lacks that format's members; in a file whose format was detected from its first records, it has the members but not a shape the format's reader understands (a chat record whose messages have no role at all). The message says what it lacks. The record is not checked further, and fix leaves it as it is."},
	{ID: RuleNotJSONL, Severity: finding.Error, Pack: CorePack, Kind: "go", Source: "engine/lint/core.go",
		Description: "The file is not JSON Lines: binary (a Parquet file, an archive), text in which most lines near its start are not JSON (a Markdown chat history), or one pretty-printed JSON document under a name not read as one (.json and .traj are). It is reported once, on line 1, and not read further; fix and repair refuse it (exit 2, nothing written)."},
	{ID: RuleLineTooLong, Severity: finding.Error, Pack: CorePack, Kind: "go", Source: "engine/lint/core.go",
		Description: "A line is longer than --max-line-size (64 MiB by default); it is skipped without being held in memory, and the message gives its length. A .json document is read whole, so the bound applies to the whole file."},
	{ID: RuleTooDense, Severity: finding.Error, Pack: CorePack, Kind: "go", Source: "engine/lint/core.go",
		Description: "A record holds more values (every member value and list element, at any depth) than --max-record-values (" + maxValuesText + " by default) among those the run builds: its decode stopped at the bound, so memory stays bounded, and the record is not checked further. Values the active rules never read are not built and do not count. For a session format the bound applies to each line, and a session holding a line over it is not checked further (judged without that line, it would get findings of what it is not). fix writes the record (the session) back byte for byte, convert --to leaves it out with a note."},
}

func coreFinding(rule, file string, line int, msg string) finding.Finding {
	return finding.Finding{Rule: rule, Severity: finding.Error, Message: msg, File: file, Line: line, Pack: CorePack}
}

// SyntaxFinding is the finding for bytes that are not a JSON record, for
// readers that find such a line themselves (a .json document's parse error).
func SyntaxFinding(file string, line int, msg string) finding.Finding {
	return coreFinding(RuleSyntax, file, line, msg)
}

// LineTooLongFinding is the finding for a line the reader skipped for its
// length.
func LineTooLongFinding(file string, line int, msg string) finding.Finding {
	return coreFinding(RuleLineTooLong, file, line, msg)
}

// NotJSONLFinding is the finding for a file that is not JSON Lines at all
// (jsonl.Sniff): one for the file, on its first line.
func NotJSONLFinding(file, msg string) finding.Finding {
	return coreFinding(RuleNotJSONL, file, 1, msg)
}

// maxValuesText is astjson.DefaultMaxValues as the rule's description
// writes it.
var maxValuesText = func() string {
	s := strconv.Itoa(astjson.DefaultMaxValues)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}()

// TooDenseFinding is the finding for a record whose decode went over its
// bound on values (astjson.DenseError).
func TooDenseFinding(file string, line int, e *astjson.DenseError) finding.Finding {
	return coreFinding(RuleTooDense, file, line, TooDense(e)+"; the record was not read further: raise --max-record-values to read it")
}

// TooDense says why a record was not read, in the words every command
// uses before saying what it did with it.
func TooDense(e *astjson.DenseError) string {
	return fmt.Sprintf("the record holds more than %d values, over the limit (--max-record-values): its decode stopped at byte %d of %d", e.Max, e.Offset, e.Size)
}
