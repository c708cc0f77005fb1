package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/gate"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/runner"
)

// Unit is lint.Unit in a form Beam can encode: what one call to the linter
// checks, either one record of a per-record format or every record of a
// session file.
type Unit struct {
	File    string
	Format  string
	Forced  bool
	Records []Record
	// DupMember, DupValue and DupFirstLine are lint.Unit.Duplicate: the
	// reader saw the record's unique value (a batch custom_id) on an
	// earlier line; DupFirstLine is 0 when it did not.
	DupMember    string
	DupValue     string
	DupFirstLine int
}

// Record is one line of a file: its 1-based number, its bytes and what
// ended it ("\n", "\r\n" or "" on a last line without one), so that --fix
// writes a line no rule touched back as it was read.
type Record struct {
	Line int
	Data []byte
	End  string
}

func (u Unit) lint() lint.Unit {
	recs := make([]jsonl.Record, len(u.Records))
	for i, r := range u.Records {
		recs[i] = jsonl.Record{Line: r.Line, Data: r.Data, End: r.End}
	}
	out := lint.Unit{File: u.File, Format: document.Format(u.Format), Forced: u.Forced, Records: recs}
	if u.DupFirstLine > 0 {
		out.Duplicate = &lint.Duplicate{Member: u.DupMember, Value: u.DupValue, FirstLine: u.DupFirstLine}
	}
	return out
}

func unitOf(u lint.Unit) Unit {
	recs := make([]Record, len(u.Records))
	for i, r := range u.Records {
		recs[i] = Record{Line: r.Line, Data: r.Data, End: r.End}
	}
	out := Unit{File: u.File, Format: string(u.Format), Forced: u.Forced, Records: recs}
	if d := u.Duplicate; d != nil {
		out.DupMember, out.DupValue, out.DupFirstLine = d.Member, d.Value, d.FirstLine
	}
	return out
}

// ReadFn reads one file into units with the reader `chatlint check` uses
// (runner.ReadInput): the first JSON object decides the format; a
// per-record format gives one unit per record (so records spread over
// workers), a session format one unit for the whole file; a .json file is
// split into its records; lines are bounded. It emits the findings the
// reader makes itself (an unrecognized format, a broken .json document, a
// line over the bound) and one tally of the file and its records. A corrupt
// line is not an error here: it travels as a unit and the linter reports it.
// A checking job's reader also emits the file's layout (its byte-order mark
// and blank lines, its number of records) as a fact for the file's dataset
// fold, which the records' facts cannot tell (dataset.go). A fixing job's
// reader emits no unit of a file with a line over the bound, since the job
// could not write that line back (readfix.go).
type ReadFn struct {
	// Format forces the input format; empty means detect it per file.
	Format string
	// MaxLineSize bounds a line, as check's --max-line-size; 0 is the default.
	MaxLineSize int
	// MaxValues bounds the values detection builds of a record, as
	// check's --max-record-values; 0 is the default.
	MaxValues int
	// Fix refuses .json documents, as `chatlint fix` does: the job writes
	// JSON Lines, and an element of a .json array may span lines. The
	// launcher refuses them first; this is for a file that appears later.
	Fix bool
	// Settings are the team's config: rule levels apply to the reader's own
	// findings too (an unrecognized format turned into a warning).
	Settings Settings

	gate *gate.Gate
}

// Setup reads the settings once per instance.
func (fn *ReadFn) Setup() error {
	var err error
	fn.gate, err = fn.Settings.gate()
	return err
}

// ProcessElement reads one file. Only failing to read it is an error (the
// runner then retries the bundle, as for any I/O failure), and for a fixing
// job a file that changed while read (readfix.go).
func (fn *ReadFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, emitUnit func(Unit), emitFinding func(string), emitTally func(Tally), emitFact func(string, Fact)) error {
	name := file.Metadata.Path
	if fn.Fix && jsonl.IsJSONDocument(name) {
		return fmt.Errorf("%s: %w", name, ErrFixJSON)
	}
	open := func() (io.ReadCloser, error) {
		rc, err := file.Open(ctx)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return rc, nil
	}
	out := &output{finding: emitFinding, tally: emitTally, gate: fn.gate}
	if fn.Fix {
		return fn.readFix(ctx, name, file.Metadata.Size, open, emitUnit, out)
	}
	out.fact = emitFact
	rc, err := open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return fn.read(ctx, name, rc, emitUnit, out, nil)
}

// read reads one input's units and tallies it. A fixing job's read follows
// the file in w (readfix.go); a checking job's passes nil.
func (fn *ReadFn) read(ctx context.Context, name string, r io.Reader, emitUnit func(Unit), out *output, w *whole) error {
	opts := runner.Options{Format: document.Format(fn.Format), MaxLineSize: fn.MaxLineSize, Document: document.Options{MaxValues: fn.MaxValues}}
	in, layout, err := runner.ReadInputLayout(ctx, runner.Input{Name: name, Reader: r, Stored: true}, opts, func(j runner.Job) {
		if j.Finding != nil {
			f := *j.Finding
			if w != nil && f.Rule == lint.RuleLineTooLong {
				f = w.longLine(f)
			}
			out.emit(f)
			return
		}
		if w != nil && !w.keep() {
			return
		}
		emitUnit(unitOf(j.Unit))
	})
	if err != nil {
		return err
	}
	if out.fact != nil {
		out.fact(name, layoutFact(in.Format, layout))
	}
	t := Tally{Files: 1, Records: in.Records}
	if in.Warning != "" { // an empty file: a warning of the summary, as in check
		t.Warnings = 1
	}
	out.tally(t)
	return nil
}

// ErrFixJSON is why --fix does not read a .json document.
var ErrFixJSON = errors.New("--fix writes JSON Lines; a .json document is not fixed (convert it to .jsonl first)")

// output emits findings as JSON lines, with a tally of each.
type output struct {
	finding func(string)
	tally   func(Tally)
	fact    func(string, Fact) // nil: the file's layout is not emitted
	gate    *gate.Gate         // nil: every finding passes
}

func (o *output) emit(f finding.Finding) {
	f, ok := pass(o.gate, f)
	if !ok {
		return
	}
	o.finding(marshal(f))
	o.tally(Tally{Rule: f.Rule, Severity: f.Severity.String(), Findings: 1})
}
