package repair

import (
	"time"

	"github.com/chatlint/chatlint/engine/document"
)

// Outcome is what happened to one file.
type Outcome int

const (
	Clean       Outcome = iota // nothing to change: the file was not touched
	Repaired                   // rewritten, the original in Result.Backup
	WouldRepair                // as Repaired, but a dry run wrote nothing
	Empty                      // only blank lines: not touched
	Skipped                    // not repaired, for Result.Reason; not touched
	Failed                     // could not be read or rewritten; not touched
	// Refused: the file is not JSON Lines at all (binary, Markdown, one
	// pretty-printed JSON document; jsonl.Sniff): dropping its "lines"
	// would destroy it. Not touched; Result.Reason says what it is.
	Refused
)

// Result reports one file.
type Result struct {
	File    string // the path as given
	Outcome Outcome
	Stats   Stats  // what the scan found
	Backup  string // the backup of the original, when Repaired
	Reason  string // why the file was skipped or failed
}

// Reasons a file is skipped.
const (
	ReasonEmpty         = "empty file"
	ReasonNoFiles       = "no *.jsonl file in this directory"
	ReasonHeader        = "invalid session header"
	ReasonNoJSON        = "no line is valid JSON"
	ReasonMostlyInvalid = "most lines are not valid JSON"
	ReasonJSONDocument  = "a .json file is one JSON document, not JSON Lines"
)

// Options control File.
type Options struct {
	DryRun bool
	// Format, when set, is the format of every file (--format): a format
	// whose files open with a header (document.Adapter.Header) requires
	// it, the others never do. Empty: each file's first records tell.
	Format document.Format
	// Force repairs a file even when more lines would be dropped than kept
	// (a pretty-printed JSON document, say, would lose nearly everything).
	Force bool
	// IgnoreWriters replaces a file even while another process holds it
	// open for writing (atomicfile.OpenWriters); by default such a file
	// is left as it is, since the writer's later lines would be lost.
	IgnoreWriters bool
	// Now stamps backup names; time.Now when nil.
	Now func() time.Time
}
