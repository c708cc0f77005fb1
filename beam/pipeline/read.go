package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
)

// Unit is lint.Unit in a form Beam can encode: what one call to the linter
// checks, either one record of a per-record format or every record of a
// session file.
type Unit struct {
	File    string
	Format  string
	Records []Record
}

// Record is one line of a file: its 1-based number and its bytes.
type Record struct {
	Line int
	Data []byte
}

func (u Unit) lint() lint.Unit {
	recs := make([]jsonl.Record, len(u.Records))
	for i, r := range u.Records {
		recs[i] = jsonl.Record{Line: r.Line, Data: r.Data}
	}
	return lint.Unit{File: u.File, Format: document.Format(u.Format), Records: recs}
}

// ReadFn reads one file into units, the way `chatlint check` does: the
// first JSON object decides the format; a per-record format gives one unit
// per record (so records spread over workers), a session format one unit
// for the whole file; a .json file holding one value or an array is split
// into its records. It emits the findings it makes itself (an unrecognized
// format, a broken .json document) and one tally of the file and its
// records. A corrupt line is not an error here: it travels as a unit and
// the linter reports it.
type ReadFn struct {
	// Format forces the input format; empty means detect it per file.
	Format string
}

// ProcessElement reads one file. Only failing to read it is an error (the
// runner then retries the bundle, as for any I/O failure).
func (fn *ReadFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, emitUnit func(Unit), emitFinding func(string), emitTally func(Tally)) error {
	name := file.Metadata.Path
	rc, err := file.Open(ctx)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	defer rc.Close()
	out := &output{finding: emitFinding, tally: emitTally}
	st := &fileState{name: name, format: document.Format(fn.Format), emit: emitUnit, out: out}
	st.detected = st.format != ""
	n, err := st.read(rc)
	if err != nil {
		return err
	}
	emitTally(Tally{Files: 1, Records: n})
	return nil
}

// fileState follows one file: its format once known, and the session being
// gathered for whole-file formats.
type fileState struct {
	name     string
	format   document.Format
	detected bool
	session  []Record
	emit     func(Unit)
	out      *output
}

// read reads every record of r and returns how many there were.
func (st *fileState) read(r io.Reader) (int, error) {
	if jsonl.IsJSONDocument(st.name) {
		data, err := io.ReadAll(r)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", st.name, err)
		}
		recs, ok, err := jsonl.SplitJSON(data)
		if ok {
			for _, rec := range recs {
				st.record(rec)
			}
			var se *jsonl.SyntaxError
			if errors.As(err, &se) {
				st.out.emit(lint.SyntaxFinding(st.name, se.Line, "invalid JSON: "+se.Msg))
			}
			st.finish()
			return len(recs), nil
		}
		r = bytes.NewReader(data) // several values: read as JSON Lines
	}
	rd := jsonl.NewReader(r)
	n := 0
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return n, fmt.Errorf("%s: %w", st.name, err)
		}
		n++
		st.record(rec)
	}
	st.finish()
	return n, nil
}

// record routes one record: detection on the first JSON object, then a unit
// per record, or into the session being gathered.
func (st *fileState) record(rec jsonl.Record) {
	r := Record{Line: rec.Line, Data: bytes.Clone(rec.Data)}
	if !st.detected {
		format, _, unrecognized, ok := lint.Detect(st.name, rec)
		if !ok { // not an object: the linter reports it as a syntax finding
			st.emit(Unit{File: st.name, Records: []Record{r}})
			return
		}
		st.detected, st.format = true, format
		if unrecognized != nil {
			st.out.emit(*unrecognized)
		}
	}
	if st.format.PerFile() {
		st.session = append(st.session, r)
		return
	}
	st.emit(Unit{File: st.name, Format: string(st.format), Records: []Record{r}})
}

func (st *fileState) finish() {
	if len(st.session) > 0 {
		st.emit(Unit{File: st.name, Format: string(st.format), Records: st.session})
		st.session = nil
	}
}

// output emits findings as JSON lines, with a tally of each.
type output struct {
	finding func(string)
	tally   func(Tally)
}

func (o *output) emit(f finding.Finding) {
	o.finding(marshal(f))
	o.tally(Tally{Rule: f.Rule, Severity: f.Severity.String(), Findings: 1})
}
