package fix

import (
	"context"
	"errors"
	"fmt"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
)

// RuleFix names the note of a document left as it was because fixing it
// failed: its actions conflict, or its rules never settle.
const RuleFix = "fix"

// Fixer fixes units one at a time, as lint.Linter checks them: no
// goroutines, files or ordering, so `chatlint fix` and the Beam job make the
// same call. It is not safe for concurrent use: make one per worker from
// the same Stages.
type Fixer struct {
	evs  *Evaluators
	opts Options
}

// New returns a Fixer over the stages, with evaluators of its own. opts
// gives the document options and the pass bound; each unit gives its file
// and format.
func New(stages *Stages, opts Options) *Fixer {
	return &Fixer{evs: stages.Evaluators(), opts: opts}
}

// Fixed is what Fix made of one unit (Result is Apply's, of one pass).
type Fixed struct {
	// Records are the lines to write, in order: the fixed records, or the
	// unit's as they were when the document was left alone. Changed[i]
	// says whether Records[i] differs from its source (nil: none does).
	Records []jsonl.Record
	Changed []bool
	// Outcome is what the passes did; nil when nothing was applied to a
	// record of no known format or the document was left as it was.
	Outcome *Outcome
	// ID names the document in the rejects, as findings name it.
	ID string
	// Rejects are the pieces dropped, for the rejects file.
	Rejects []Reject
	// Notes are for the user, in order.
	Notes []Note
	// Left is why the document was left as it was (a *PolicyError, a
	// *KeptError, a *PassError, conflicting actions, an *UnfixableError);
	// nil when it was fixed.
	Left error
	// Refused is an *UnfixableError: the format cannot be rewritten in its
	// layout, so the whole file is to be refused (Left is set too, for a
	// caller that goes on file by file without refusing).
	Refused error
	// Known says the unit is of a known format, so its packs ran.
	Known bool
	Tally Tally
}

// NoteKind tells the notes of Fixed apart.
type NoteKind int

const (
	// NoteLeft: the document was left as it was (Fixed.Left).
	NoteLeft NoteKind = iota
	// NoteDropped: a line that is JSON but no object went to the rejects.
	NoteDropped
	// NoteNotJSON: a line that is not JSON is written back as it is.
	NoteNotJSON
)

// Note is a line for the user, in the shape of a finding.
type Note struct {
	finding.Finding
	Kind NoteKind
}

// Tally is what one unit adds to a run's summary.
type Tally struct {
	// Documents is 1 when a document was evaluated (fixed or left), 0 for
	// records of no known format of which nothing was dropped.
	Documents int
	Changed   int // 1 when the output differs from the input
	Unfixed   int // 1 when the document was left for a reason other than a failing rule
	// PolicyErrors is 1 when a rule failed on the document.
	PolicyErrors int
	Dropped      int // pieces moved to the rejects
	// Actions are the actions applied per rule, in the order each rule
	// first applied one.
	Actions []RuleActions
}

// RuleActions counts one rule's applied actions.
type RuleActions struct {
	Rule string
	N    int
}

// Fix fixes one unit: the records of one document, or of a session file.
// A unit of no known format (Format "") runs no pack: only its lines that
// are JSON but no object are dropped. A document that cannot be fixed is
// left as it was, with a note saying why; never an error of the run.
func (f *Fixer) Fix(ctx context.Context, u lint.Unit) Fixed {
	res := Fixed{Records: u.Records, Known: u.Format != ""}
	if len(u.Records) == 0 {
		return res
	}
	opts := f.opts
	opts.Format, opts.File = u.Format, u.File
	if u.Format == "" {
		out, err := Run(ctx, nil, u.Records, opts)
		if err != nil {
			return res // not reached: with no pack and no format, Run only drops lines
		}
		if len(out.Rejects) > 0 {
			res.take(out)
		}
		res.Notes = dropNotes(u.File, out)
		for _, r := range res.Records {
			if !jsonl.IsObject(r.Data) {
				res.Notes = append(res.Notes, notJSON(u.File, r.Line))
			} else if n, over := tooDense(u.File, r, opts.Document.MaxValues); over {
				// Detection stopped reading it for its values: it is
				// written back as it is, and said so.
				res.Notes = append(res.Notes, n)
				res.Left = errors.New(n.Message)
				res.Tally.Unfixed++
			}
		}
		return res
	}
	opts.Document = f.evs.Document(u.Format, opts.Document)
	out, err := Run(ctx, f.evs.For(u.Format), u.Records, opts)
	if err != nil {
		res.leave(u, err)
		return res
	}
	res.take(out)
	res.Tally.Documents = 1
	res.Notes = dropNotes(u.File, out)
	for _, l := range out.Invalid {
		res.Notes = append(res.Notes, notJSON(u.File, l))
	}
	return res
}

// take makes the outcome the result: its records, rejects and tally.
func (res *Fixed) take(out *Outcome) {
	res.Outcome, res.Records, res.Changed, res.ID = out, out.Records, out.Changed, out.ID
	if !out.AnyChange() {
		return
	}
	res.Rejects = out.Rejects
	res.Tally.Documents, res.Tally.Changed, res.Tally.Dropped = 1, 1, len(out.Rejects)
	at := map[string]int{}
	for _, a := range out.Applied {
		i, ok := at[a.Rule]
		if !ok {
			i = len(res.Tally.Actions)
			at[a.Rule] = i
			res.Tally.Actions = append(res.Tally.Actions, RuleActions{Rule: a.Rule})
		}
		res.Tally.Actions[i].N++
	}
}

// leave is the result of a document left as it was: its records written
// back, a note saying why.
func (res *Fixed) leave(u lint.Unit, err error) {
	res.Left = err
	var ue *UnfixableError
	if errors.As(err, &ue) {
		res.Refused = err
	}
	note := finding.Finding{Rule: RuleFix, Severity: finding.Error, File: u.File, Line: u.Records[0].Line, Message: err.Error()}
	res.Tally = Tally{Documents: 1, Unfixed: 1}
	var pe *PolicyError
	var ke *KeptError
	var ur *UnreadError
	var td *TooDenseError
	switch {
	case errors.As(err, &ur):
		note.Rule, note.Pack, note.Line = lint.RuleMismatch, lint.CorePack, ur.Line
	case errors.As(err, &td):
		note.Rule, note.Pack, note.Line = lint.RuleTooDense, lint.CorePack, td.Line
	case errors.As(err, &pe):
		note.Rule, note.Pack = lint.RulePolicyError, lint.CorePack
		res.Tally = Tally{Documents: 1, PolicyErrors: 1}
	case errors.As(err, &ke):
		// A rule asked for the record to be left alone: its note says why.
		note.Rule, note.Pack, note.Severity = ke.Action.Rule, ke.Action.Pack, finding.Warning
	}
	res.Notes = []Note{{Finding: note, Kind: NoteLeft}}
}

// dropNotes are the notes of the lines Run dropped itself, being JSON but
// no object.
func dropNotes(file string, out *Outcome) []Note {
	var notes []Note
	for _, r := range out.Rejects {
		if r.Op == OpDropLine {
			f := finding.Finding{Rule: r.Rule, Severity: finding.Warning, File: file, Line: r.Line,
				Message: fmt.Sprintf("%s; moved to the rejects file", r.Reason)}
			notes = append(notes, Note{Finding: f, Kind: NoteDropped})
		}
	}
	return notes
}

// notJSON is the note of a line that is not JSON, written back as it is.
func notJSON(file string, line int) Note {
	f := lint.SyntaxFinding(file, line, "not JSON; left as it is (chatlint repair drops such lines)")
	f.Severity = finding.Warning
	return Note{Finding: f, Kind: NoteNotJSON}
}

// tooDense is the note on a record written back because it is over the
// bound on values (document.Options.MaxValues), when it is. Only a record
// of more than 2*max+2 bytes can hold more than max values: the others
// are not decoded again.
func tooDense(file string, r jsonl.Record, max int) (Note, bool) {
	if max <= 0 {
		max = astjson.DefaultMaxValues
	}
	if len(r.Data) <= 2*max+2 {
		return Note{}, false
	}
	_, err := astjson.DecodeMax(r.Data, max)
	var de *astjson.DenseError
	if !errors.As(err, &de) {
		return Note{}, false
	}
	e := &TooDenseError{Line: r.Line, Err: de}
	f := finding.Finding{Rule: lint.RuleTooDense, Pack: lint.CorePack, Severity: finding.Error, File: file, Line: r.Line, Message: e.Error()}
	return Note{Finding: f, Kind: NoteLeft}, true
}
