package pipeline

import (
	"context"
	"errors"
	"strings"

	"github.com/chatlint/chatlint/engine/fix"
	"github.com/chatlint/chatlint/engine/jsonl"
)

// RuleFix names the note of a document fix left as it was: its actions
// conflict, or its rules never settle. It is `chatlint fix`'s word too.
const RuleFix = fix.RuleFix

// FixFn fixes units with the call `chatlint fix` makes (fix.Fixer.Fix, over
// the cleanup stages of the unit's format) and emits, per unit:
//
//   - its output lines as one element, each line with its own ending, so
//     that the lines of a session stay together and in order; a line no
//     rule touched is written back byte for byte;
//   - one rejects line per piece a rule dropped (fix.RejectLine);
//   - notes, in the JSON of a finding: a line left as it is because it is
//     not JSON, a document left as it was (rule "fix", a cleanup rule's
//     keep_record, or
//     "policy-error" when a rule failed on it);
//   - tallies for the summary: the document, whether it changed, the
//     pieces dropped and the actions per rule.
type FixFn struct {
	Config Config
	Fix    Fix

	fixer *fix.Fixer
}

// Setup builds the instance's Fixer, with evaluators of its own. The
// engines are compiled once per worker process and shared (see Config.engine); an
// evaluator serves one goroutine, and the runner calls one DoFn instance
// from one goroutine at a time.
func (fn *FixFn) Setup(ctx context.Context) error {
	stages, err := fn.Fix.compile(ctx, fn.Config)
	if err != nil {
		return err
	}
	fn.fixer = fix.New(stages, fix.Options{Document: fn.Config.documentOptions(), MaxPasses: fn.Fix.MaxPasses})
	return nil
}

// ProcessElement fixes one unit with the Fixer `chatlint fix` uses. A
// document fix cannot settle, or a rule failing on it, is a note, and its
// lines are written as they were: never an error of the bundle.
func (fn *FixFn) ProcessElement(ctx context.Context, u Unit, emitLines, emitReject, emitNote func(string), emitTally func(Tally)) {
	notes := output{finding: emitNote, tally: emitTally}
	lu := u.lint()
	if len(lu.Records) == 0 {
		return
	}
	// A unit of no known format is a line before a file's format is known,
	// or a record of a file of no known format (the reader noted the
	// format; chatlint fix writes nothing for such a file, the job passes
	// its records through). Its lines that are JSON but no object are
	// dropped, its lines that are not JSON kept.
	res := fn.fixer.Fix(ctx, lu)
	var ke *fix.KeptError
	for _, n := range res.Notes {
		switch n.Kind {
		case fix.NoteDropped: // the rejects say it
			continue
		case fix.NoteLeft:
			if !errors.As(res.Left, &ke) {
				n.Message += " (left as it was)"
			}
		}
		notes.emit(n.Finding)
	}
	if s := lines(res.Records); s != "" { // a record an action dropped whole has no line
		emitLines(s)
	}
	t := res.Tally
	if t.Documents == 0 {
		return
	}
	emitTally(Tally{Documents: t.Documents, Changed: t.Changed, Unfixed: t.Unfixed, Dropped: t.Dropped})
	for _, r := range res.Rejects {
		emitReject(string(fix.RejectLine(u.File, res.ID, r)))
	}
	for _, a := range t.Actions {
		emitTally(Tally{Action: a.Rule, Actions: a.N})
	}
}

// lines joins records as a file holds them: each with its own line ending,
// and a newline after a last line that had none (or only CRs), since the
// job's output puts other lines after it.
func lines(recs []jsonl.Record) string {
	var b strings.Builder
	for _, r := range recs {
		b.Write(r.Data)
		b.WriteString(r.End)
		if !strings.HasSuffix(r.End, "\n") { // "", or CRs without a LF
			b.WriteByte('\n')
		}
	}
	return b.String()
}
