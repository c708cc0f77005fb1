package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/fix"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
)

// RuleFix names the note of a document fix left as it was: its actions
// conflict, or its rules never settle. It is `chatlint fix`'s word too.
const RuleFix = "fix"

// FixFn fixes units with the call `chatlint fix` makes (fix.Run, with the
// cleanup packs of the unit's format) and emits, per unit:
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

	evs *fix.Evaluators
}

// Setup builds the instance's evaluators, one per stage. The engines are
// compiled once per worker process and shared (see Config.engine); an
// evaluator serves one goroutine, and the runner calls one DoFn instance
// from one goroutine at a time.
func (fn *FixFn) Setup(ctx context.Context) error {
	stages, err := fn.Fix.compile(ctx, fn.Config)
	if err != nil {
		return err
	}
	fn.evs = stages.Evaluators()
	return nil
}

// ProcessElement fixes one unit. A document fix cannot settle, or a rule
// failing on it, is a note, and its lines are written as they were: never
// an error of the bundle.
func (fn *FixFn) ProcessElement(ctx context.Context, u Unit, emitLines, emitReject, emitNote func(string), emitTally func(Tally)) {
	notes := output{finding: emitNote, tally: emitTally}
	recs := u.lint().Records
	if len(recs) == 0 {
		return
	}
	if u.Format == "" {
		// A line before a file's format is known, or a record of a file of
		// no known format (the reader noted the format; chatlint fix writes
		// nothing for such a file, the job passes its records through). A
		// line that is JSON but not an object is dropped as fix.Run drops
		// it; one that is not JSON is kept.
		out, _ := fix.Run(ctx, nil, recs, fix.Options{File: u.File})
		for _, r := range out.Records {
			if !isObject(r.Data) {
				notes.emit(notKept(u.File, r.Line))
			}
		}
		if s := lines(out.Records); s != "" {
			emitLines(s)
		}
		if len(out.Rejects) > 0 {
			emitTally(Tally{Documents: 1, Changed: 1, Dropped: len(out.Rejects)})
			for _, r := range out.Rejects {
				emitReject(string(fix.RejectLine(u.File, out.ID, r)))
			}
			emitTally(Tally{Action: lint.RuleSyntax, Actions: len(out.Rejects)})
		}
		return
	}
	format := document.Format(u.Format)
	out, err := fix.Run(ctx, fn.evs.For(format), recs, fix.Options{Format: format, File: u.File,
		Document: fn.Config.documentOptions(), MaxPasses: fn.Fix.MaxPasses})
	if err != nil {
		note := finding.Finding{Rule: RuleFix, Severity: finding.Error, File: u.File, Line: recs[0].Line,
			Message: fmt.Sprintf("%v (left as it was)", err)}
		t := Tally{Documents: 1, Unfixed: 1}
		var pe *fix.PolicyError
		var ke *fix.KeptError
		switch {
		case errors.As(err, &pe):
			note.Rule, note.Pack, t = lint.RulePolicyError, lint.CorePack, Tally{Documents: 1}
		case errors.As(err, &ke):
			// A rule asked for the record to be left alone.
			note.Rule, note.Pack, note.Severity, note.Message = ke.Action.Rule, ke.Action.Pack, finding.Warning, err.Error()
		}
		notes.emit(note)
		emitTally(t)
		emitLines(lines(recs))
		return
	}
	for _, l := range out.Invalid {
		notes.emit(notKept(u.File, l))
	}
	if s := lines(out.Records); s != "" { // a record an action dropped whole has no line
		emitLines(s)
	}
	if !out.AnyChange() {
		emitTally(Tally{Documents: 1})
		return
	}
	emitTally(Tally{Documents: 1, Changed: 1, Dropped: len(out.Rejects)})
	for _, r := range out.Rejects {
		emitReject(string(fix.RejectLine(u.File, out.ID, r)))
	}
	perRule := map[string]int{}
	var rules []string
	for _, a := range out.Applied {
		if perRule[a.Rule] == 0 {
			rules = append(rules, a.Rule)
		}
		perRule[a.Rule]++
	}
	for _, r := range rules {
		emitTally(Tally{Action: r, Actions: perRule[r]})
	}
}

// notKept is the note of a line that is not a JSON object, in the words of
// `chatlint fix`.
func notKept(file string, line int) finding.Finding {
	f := lint.SyntaxFinding(file, line, "not JSON; left as it is (chatlint repair drops such lines)")
	f.Severity = finding.Warning
	return f
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

func isObject(data []byte) bool {
	data = bytes.TrimLeft(data, " \t\r\n")
	return len(data) > 0 && data[0] == '{' && json.Valid(data)
}
