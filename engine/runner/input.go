package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
)

// Input is one thing to read: a file, or a stream such as stdin.
type Input struct {
	// Name is used in findings.
	Name string
	// Path is the file to open; empty when Reader is set.
	Path string
	// Reader, when set, is read instead of opening Path.
	Reader io.Reader
}

// job is a unit of work for a worker: one record of a per-record format, a
// whole session file, or a finding the reader made itself.
type job struct {
	seq     uint64
	weight  int64     // its share of the budget, taken by send
	unit    lint.Unit // its records own their data
	finding *finding.Finding
}

// check returns the job's findings, sorted.
func (j job) check(ctx context.Context, l *lint.Linter) []finding.Finding {
	if j.finding != nil {
		return []finding.Finding{*j.finding}
	}
	return l.Check(ctx, j.unit)
}

type producer struct {
	opts   Options
	jobs   chan<- job
	budget *budget
	seq    uint64
	counts *progress
}

// send waits for the job's bytes to fit in the budget and queues it.
func (p *producer) send(j job) {
	w := int64(jobOverhead)
	for _, rec := range j.unit.Records {
		w += int64(max(len(rec.Raw), len(rec.Data)))
	}
	j.weight = p.budget.acquire(w)
	j.seq = p.seq
	p.seq++
	p.jobs <- j
}

// fileState follows one file: its format once known, and the session being
// gathered for whole-file formats.
type fileState struct {
	name     string
	format   document.Format
	detected bool
	session  []jsonl.Record
	first    ast.Object // the decoded first record of session, when detection decoded it
}

// read reads one input and sends its jobs. It returns the number of records.
func (p *producer) read(ctx context.Context, in Input) (int, error) {
	r := in.Reader
	if r == nil {
		f, err := os.Open(in.Path)
		if err != nil {
			return 0, err
		}
		defer f.Close()
		r = f
	}
	st := &fileState{name: in.Name, format: p.opts.Format, detected: p.opts.Format != ""}
	n := 0
	if jsonl.IsJSONDocument(in.Name) {
		data, err := io.ReadAll(r)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", in.Name, err)
		}
		recs, ok, err := jsonl.SplitJSON(data)
		if ok {
			for _, rec := range recs {
				p.record(st, rec)
			}
			var se *jsonl.SyntaxError
			if errors.As(err, &se) {
				f := lint.SyntaxFinding(in.Name, se.Line, "invalid JSON: "+se.Msg)
				p.send(job{finding: &f})
			}
			p.finish(st)
			return len(recs), nil
		}
		r = bytes.NewReader(data) // several values: read as JSON Lines
	}
	rd := jsonl.NewReader(r)
	for {
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			p.finish(st)
			return n, fmt.Errorf("%s: %w", in.Name, err)
		}
		n++
		rec = rec.Clone()
		p.record(st, rec)
	}
	p.finish(st)
	return n, nil
}

// record routes one record: detection on the first JSON object, then a job
// per record, or into the session being gathered.
func (p *producer) record(st *fileState, rec jsonl.Record) {
	p.counts.records.Add(1)
	p.counts.bytes.Add(int64(len(rec.Data)) + 1)
	var first ast.Object
	if !st.detected {
		format, obj, unrecognized, ok := lint.Detect(st.name, rec)
		if !ok { // not an object: reported as a syntax finding
			p.send(job{unit: lint.Unit{File: st.name, Records: []jsonl.Record{rec}}})
			return
		}
		st.detected, st.format, first = true, format, obj
		if unrecognized != nil {
			p.send(job{finding: unrecognized})
		}
	}
	if st.format.PerFile() {
		if len(st.session) == 0 {
			st.first = first
		}
		st.session = append(st.session, rec)
		return
	}
	p.send(job{unit: lint.Unit{File: st.name, Format: st.format, Records: []jsonl.Record{rec}, First: first}})
}

func (p *producer) finish(st *fileState) {
	if len(st.session) > 0 {
		p.send(job{unit: lint.Unit{File: st.name, Format: st.format, Records: st.session, First: st.first}})
		st.session, st.first = nil, nil
	}
}
