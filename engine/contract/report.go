// Package contract validates conversation-record files against the input
// contract (one record per line: conversation_id, user_id, timestamp,
// messages, metadata) and writes the contract validator's report: the same
// verdicts, counts and JSON layout, so scripts and dashboards built on that
// report keep working.
package contract

import (
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/chatlint/chatlint/engine/internal/py"
	"github.com/chatlint/chatlint/engine/jsonv"
	"github.com/chatlint/chatlint/engine/report"
)

// SchemaVersion is the version of the contract and of its report.
const SchemaVersion = "1.0.0"

// Error codes of the report, one per line at most.
const (
	CodeInvalidJSON = "invalid_json"
	CodeNonObject   = "non_object_line"
	CodeSchema      = "schema_validation_failed"
	CodeDuplicateID = "duplicate_conversation_id"
	CodeEmpty       = "empty_dataset"
	// CodeLineTooLong is chatlint's own: a line over Options.MaxLineSize,
	// skipped unread (the reference reads a line of any length, and one
	// 600 MB line took 2.6 GB).
	CodeLineTooLong = "line_too_long"
	// CodeRecordTooDense is chatlint's own: a line that would build more
	// values than Options.MaxValues, not checked (a 32 MB line of a million
	// messages took 0.9 GB or more in every command).
	CodeRecordTooDense = "record_too_dense"
)

// Error is one reported problem.
type Error struct {
	Line    int // 1-based; 0 for empty_dataset
	Code    string
	Message string
}

// Summary describes the valid records. A turn is a message.
type Summary struct {
	Conversations int
	UniqueUsers   int
	Messages      int
	AvgTurns      float64
	MinTurns      int
	MaxTurns      int
}

// Report is the outcome of validating one input.
type Report struct {
	InputPath       string
	TotalLines      int
	NonEmptyLines   int
	Valid           int
	Invalid         int
	UniqueIDs       int
	DuplicateIDs    int
	ErrorCount      int
	DroppedErrors   int
	IsValid         bool
	Summary         Summary
	Errors          []Error // the first MaxErrors errors
	MaxErrors       int
	MessagesWritten int // records written by the messages-only snapshot
}

// WriteJSON writes the report as the contract validator does: keys in its
// order, two-space indent, non-ASCII escaped, a final newline (Python's
// json.dumps(indent=2) plus "\n").
func (r *Report) WriteJSON(w io.Writer) error {
	var b bytes.Buffer
	s := func(v string) string { return string(jsonv.Marshal(v, jsonv.PythonASCII)) }
	b.WriteString("{\n")
	fmt.Fprintf(&b, "  \"schema_version\": %s,\n", s(SchemaVersion))
	fmt.Fprintf(&b, "  \"input_path\": %s,\n", s(r.InputPath))
	fmt.Fprintf(&b, "  \"total_lines\": %d,\n", r.TotalLines)
	fmt.Fprintf(&b, "  \"non_empty_lines\": %d,\n", r.NonEmptyLines)
	fmt.Fprintf(&b, "  \"valid_conversation_count\": %d,\n", r.Valid)
	fmt.Fprintf(&b, "  \"invalid_line_count\": %d,\n", r.Invalid)
	fmt.Fprintf(&b, "  \"unique_conversation_id_count\": %d,\n", r.UniqueIDs)
	fmt.Fprintf(&b, "  \"duplicate_conversation_id_count\": %d,\n", r.DuplicateIDs)
	fmt.Fprintf(&b, "  \"error_count\": %d,\n", r.ErrorCount)
	fmt.Fprintf(&b, "  \"dropped_error_count\": %d,\n", r.DroppedErrors)
	fmt.Fprintf(&b, "  \"is_valid\": %t,\n", r.IsValid)
	b.WriteString("  \"summary\": {\n")
	fmt.Fprintf(&b, "    \"conversation_count\": %d,\n", r.Summary.Conversations)
	fmt.Fprintf(&b, "    \"unique_user_count\": %d,\n", r.Summary.UniqueUsers)
	fmt.Fprintf(&b, "    \"message_count\": %d,\n", r.Summary.Messages)
	fmt.Fprintf(&b, "    \"avg_turn_count\": %s,\n", py.Float(r.Summary.AvgTurns))
	fmt.Fprintf(&b, "    \"min_turn_count\": %d,\n", r.Summary.MinTurns)
	fmt.Fprintf(&b, "    \"max_turn_count\": %d\n", r.Summary.MaxTurns)
	b.WriteString("  },\n")
	if len(r.Errors) == 0 {
		b.WriteString("  \"errors\": []\n")
	} else {
		b.WriteString("  \"errors\": [\n")
		for i, e := range r.Errors {
			b.WriteString("    {\n")
			fmt.Fprintf(&b, "      \"line_number\": %d,\n", e.Line)
			fmt.Fprintf(&b, "      \"code\": %s,\n", s(e.Code))
			fmt.Fprintf(&b, "      \"message\": %s\n", s(e.Message))
			if i < len(r.Errors)-1 {
				b.WriteString("    },\n")
			} else {
				b.WriteString("    }\n")
			}
		}
		b.WriteString("  ]\n")
	}
	b.WriteString("}\n")
	_, err := w.Write(b.Bytes())
	return err
}

// sampleErrors is how many errors the human summary shows.
const sampleErrors = 5

// WriteText writes the human summary. reportPath, when not empty, is where
// the JSON report was written.
func (r *Report) WriteText(w io.Writer, reportPath string) error {
	var b bytes.Buffer
	b.WriteString("Input validation complete.\n")
	row := func(label string, v any) { fmt.Fprintf(&b, "  %-20s %v\n", label+":", v) }
	row("Schema version", SchemaVersion)
	row("Input path", report.EscapeControls(r.InputPath))
	row("Total lines", r.TotalLines)
	row("Non-empty lines", r.NonEmptyLines)
	row("Valid conversations", r.Valid)
	row("Invalid lines", r.Invalid)
	row("Duplicate IDs", r.DuplicateIDs)
	row("Unique users", r.Summary.UniqueUsers)
	row("Total messages", r.Summary.Messages)
	row("Avg turns", strconv.FormatFloat(r.Summary.AvgTurns, 'f', 2, 64))
	if reportPath != "" {
		row("Report JSON", report.EscapeControls(reportPath))
	}
	if r.IsValid {
		b.WriteString("Validation passed: input JSONL matches the pipeline contract.\n")
	} else {
		b.WriteString("Validation failed: fix input errors before running the pipeline.\n")
		shown := min(len(r.Errors), sampleErrors)
		if shown > 0 {
			b.WriteString("  Sample errors:\n")
		}
		for _, e := range r.Errors[:shown] {
			fmt.Fprintf(&b, "    - line %d [%s] %s\n", e.Line, report.EscapeControls(e.Code), report.EscapeControls(e.Message))
		}
		switch more := r.ErrorCount - shown; {
		case more > 0 && shown == 0:
			fmt.Fprintf(&b, "  %d error%s, none listed (--max-errors 0).\n", more, plural(more))
		case more > 0:
			fmt.Fprintf(&b, "    - ... %d more error%s not shown", more, plural(more))
			if r.DroppedErrors > 0 {
				fmt.Fprintf(&b, " (%d beyond --max-errors %d, counted but not in the report)", r.DroppedErrors, r.MaxErrors)
			}
			b.WriteString(".\n")
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
