package runner

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/parquetrows"
)

// Input is one thing to read: a file, or a stream such as stdin.
type Input struct {
	// Name is used in findings.
	Name string
	// Path is the file to open; empty when Reader is set.
	Path string
	// Reader, when set, is read instead of opening Path.
	Reader io.Reader
	// Stored says Reader holds a stored file (an object in a bucket, a
	// decompressed .gz) that is read to its end without waiting for a
	// writer: a file that is not JSON Lines is then told from its head as a
	// file on disk is, though Reader cannot seek.
	Stored bool
}

// job is a unit of work for a worker: one record of a per-record format, a
// whole session file, or a finding the reader made itself.
type job struct {
	unit    lint.Unit // its records own their data, unless borrowed
	finding *finding.Finding
	end     bool  // the last job of an input (see Job.End)
	err     error // with end: why the input could not be read to its end
	// layout, with end: what the input held besides records, and how
	// many it held (nil when it could not be read)
	layout *FileLayout
	// borrowed: the records' bytes are the reader's, valid only until it
	// reads on; whoever takes the job copies them before that (the
	// batcher, into its slab).
	borrowed bool
}

// producer reads inputs and hands each job to sink, in order.
type producer struct {
	opts   Options
	sink   func(job)
	counts *progress
	// layout is what the input read last held besides records.
	layout FileLayout
	// waiting, when set, is called before each record is read, with
	// wouldWait, which says whether reading it may wait on a stream for
	// more input: the batcher then hands on what it gathered. It asks
	// only when it holds jobs, as wouldWait costs a stat of the input
	// (once) and a look at the reader's buffer.
	waiting func(wouldWait func() bool)
	// room, when set, waits until a job of the given weight would be sent
	// without waiting (ordered.WeightedRoom): a session file is read
	// whole before it is sent, and gathering it while the sessions in
	// flight fill the budget held its text beside theirs.
	room func(int64) bool
}

func (p *producer) send(j job) { p.sink(j) }

// weight is a job's share of the in-flight budget: its records' bytes plus
// jobOverhead (its decoded document and findings).
func (j job) weight() int64 {
	w := int64(jobOverhead)
	for _, rec := range j.unit.Records {
		w += int64(max(len(rec.Raw), len(rec.Data)))
	}
	return w
}

// ReadInput reads one input the way Run does — format detection, sessions
// gathered whole, .json documents split, line bounds — and hands each unit
// of work to emit, in order, without checking anything. It returns what the
// summary says of the input. A pipeline that spreads the checking elsewhere
// (the Beam job) reads with it, so it reads exactly as check does.
func ReadInput(ctx context.Context, in Input, opts Options, emit func(Job)) (finding.Input, error) {
	sum, _, err := ReadInputLayout(ctx, in, opts, emit)
	return sum, err
}

// ReadInputLayout is ReadInput that also returns what the input held
// besides its records (its byte-order mark and blank lines, and how many
// records it held), which the dataset fold of a pipeline that reads with it
// needs, as Each's fold gets it with the input's last job.
func ReadInputLayout(ctx context.Context, in Input, opts Options, emit func(Job)) (finding.Input, FileLayout, error) {
	p := producer{opts: opts, counts: &progress{}, sink: func(j job) {
		j.own()
		emit(Job{Unit: j.unit, Finding: j.finding})
	}}
	sum, err := p.read(ctx, in)
	return sum, p.layout, err
}

// fileState follows one file: its format once known, and the session being
// gathered for whole-file formats.
type fileState struct {
	name     string
	format   document.Format
	detected bool
	session  []jsonl.Record
	size     int64      // the file's size, when it is a regular file (0: unknown)
	first    ast.Object // the decoded first record of session, when detection decoded it
	skipped  bool       // something was reported though no record was read
	unique   uniqueKeys // the first line of each unique-key value (batch custom_id)
	// pending holds the records read since the first JSON object while no
	// format has recognized one yet (at most lint.DetectWindow), and
	// unrecognized the finding to report if none does.
	pending      []jsonl.Record
	unrecognized *finding.Finding
}

// read reads one input and sends its jobs. It returns what the summary says
// of the input: its format and number of records, or why it could not be read.
func (p *producer) read(ctx context.Context, in Input) (finding.Input, error) {
	sum := finding.Input{File: in.Name}
	n, st, err := p.readRecords(ctx, in)
	sum.Records = n
	if st != nil {
		sum.Format = string(st.format)
	}
	switch {
	case err != nil:
		sum.Error = Describe(err)
	case n == 0 && !st.skipped:
		sum.Format, sum.Warning = "", finding.EmptyWarning
	}
	return sum, err
}

// Describe words a read error the way users expect ("open x: no such file").
func Describe(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Op + " " + pe.Path + ": " + pe.Err.Error()
	}
	return err.Error()
}

func (p *producer) readRecords(ctx context.Context, in Input) (int, *fileState, error) {
	p.layout = FileLayout{}
	if in.Reader == nil && parquetrows.IsParquet(in.Path) {
		return p.readParquet(ctx, in)
	}
	r := in.Reader
	if r == nil {
		f, err := os.Open(in.Path)
		if err != nil {
			return 0, nil, err
		}
		defer f.Close()
		r = f
	}
	st := &fileState{name: in.Name, format: p.opts.Format, detected: p.opts.Format != ""}
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			st.size = fi.Size()
		}
	}
	max := p.opts.MaxLineSize
	if max <= 0 {
		max = jsonl.DefaultMaxLineSize
	}
	n := 0
	if in.Stored {
		if _, seeks := r.(io.ReadSeeker); !seeks {
			br := bufio.NewReaderSize(r, jsonl.SniffSize)
			if done := p.sniffHead(in.Name, br, st); done {
				return 0, st, nil
			}
			r = br
		}
	}
	if done, err := p.sniff(in.Name, r, st, max); done || err != nil {
		return 0, st, err
	}
	if jsonl.IsJSONDocument(in.Name) && !p.opts.EveryLine {
		// A .json document is one value, read whole: the line bound
		// applies to the whole file.
		data, err := io.ReadAll(io.LimitReader(r, int64(max)+1))
		if err != nil {
			return 0, st, fmt.Errorf("%s: %w", in.Name, err)
		}
		if len(data) > max {
			f := lint.LineTooLongFinding(in.Name, 1, fmt.Sprintf(
				"a .json document is read whole, and this one is over the limit of %d bytes (--max-line-size); it was not checked", max))
			f.RecordHash = finding.HashRecord(data)
			p.send(job{finding: &f})
			st.skipped = true
			return 0, st, nil
		}
		recs, ok, err := jsonl.SplitJSON(data)
		if ok {
			for _, rec := range recs {
				p.record(st, rec, false)
			}
			var se *jsonl.SyntaxError
			if errors.As(err, &se) {
				f := lint.SyntaxFinding(in.Name, se.Line, "invalid JSON: "+se.Msg)
				f.RecordHash = finding.HashRecord(data) // the document is the record
				p.send(job{finding: &f})
				st.skipped = true
			}
			p.finish(st)
			p.layout = FileLayout{Records: len(recs)}
			return len(recs), st, nil
		}
		r = bytes.NewReader(data) // several values: read as JSON Lines
	}
	rd := jsonl.NewReader(r)
	rd.SetMaxLineSize(max)
	rd.SetSplit(p.opts.Split)
	rd.SetKeepBlank(p.opts.EveryLine)
	stream := 0 // 1: r may wait for its writer, -1: it never does, 0: not asked yet
	wouldWait := func() bool {
		if stream == 0 {
			stream = -1
			if mayWait(r) {
				stream = 1
			}
		}
		return stream > 0 && !rd.Ready()
	}
	for {
		if ctx.Err() != nil {
			return n, st, ctx.Err()
		}
		if p.waiting != nil {
			p.waiting(wouldWait)
		}
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var tl *jsonl.LineTooLongError
		if errors.As(err, &tl) {
			n++
			p.counts.bytes.Add(tl.Size + 1)
			f := lint.LineTooLongFinding(in.Name, tl.Line, fmt.Sprintf(
				"the line is %d bytes long, over the limit of %d bytes (--max-line-size); it was skipped", tl.Size, tl.Max))
			f.RecordHash = finding.RecordHashOf(tl.Sum)
			p.send(job{finding: &f})
			continue
		}
		if err != nil {
			p.finish(st)
			return n, st, fmt.Errorf("%s: %w", in.Name, err)
		}
		n++
		// A record the reader will reuse is copied only where it is
		// kept: by the batcher into its slab for a job, or here when it
		// waits for detection or its session (held).
		p.record(st, rec, !rd.Owned())
	}
	p.finish(st)
	p.layout = FileLayout{Records: n, Layout: rd.Layout()}
	return n, st, nil
}

// record routes one record: detection on the leading JSON objects, then a
// job per record, or into the session being gathered. borrowed says its
// bytes are the reader's (see job.borrowed).
func (p *producer) record(st *fileState, rec jsonl.Record, borrowed bool) {
	p.counts.records.Add(1)
	p.counts.bytes.Add(int64(len(rec.Data)) + 1)
	var first ast.Object
	if !st.detected {
		format, obj, unrecognized, ok := lint.DetectMax(st.name, rec, p.opts.Document.MaxValues)
		switch {
		case !ok && len(st.pending) == 0: // not an object: reported as a syntax finding
			p.send(job{unit: lint.Unit{File: st.name, Records: []jsonl.Record{rec}}, borrowed: borrowed})
			return
		case format == "" && len(st.pending) < lint.DetectWindow-1:
			// Sessions may open with entries no format claims (a Claude
			// Code file-history snapshot): a later entry may decide.
			if st.unrecognized == nil {
				st.unrecognized = unrecognized
			}
			st.pending = append(st.pending, held(rec, borrowed))
			return
		case format == "":
			if st.unrecognized == nil {
				st.unrecognized = unrecognized
			}
			st.pending = append(st.pending, held(rec, borrowed))
			p.undecided(st)
			return
		}
		st.detected, st.format = true, format
		if len(st.pending) == 0 && !(p.opts.Projected && len(rec.Data) >= lint.HandOverMax) {
			first = obj
		}
		p.flush(st)
	}
	p.route(st, rec, first, borrowed)
}

// held is a record the producer keeps while it reads on: its own copy when
// the reader would reuse its bytes.
func held(rec jsonl.Record, borrowed bool) jsonl.Record {
	if borrowed {
		return rec.Clone()
	}
	return rec
}

// own makes the job's records own their bytes, for a taker with no slab.
func (j *job) own() {
	if j.borrowed {
		for i, rec := range j.unit.Records {
			j.unit.Records[i] = rec.Clone()
		}
		j.borrowed = false
	}
}

// route hands a record of a file whose format is known to its job.
func (p *producer) route(st *fileState, rec jsonl.Record, first ast.Object, borrowed bool) {
	if st.format.PerFile() {
		if len(st.session) == 0 {
			st.first = first
			p.roomForSession(st)
		}
		st.session = append(st.session, held(rec, borrowed))
		return
	}
	u := lint.Unit{File: st.name, Format: st.format, Records: []jsonl.Record{rec}, First: first, Forced: p.opts.Format != ""}
	st.unique.mark(&u, p.opts.Document.MaxValues)
	p.send(job{unit: u, borrowed: borrowed})
}

// roomForSession waits, before a session file is gathered, until the
// session's job would be sent at once: its weight is about the file's size.
func (p *producer) roomForSession(st *fileState) {
	if p.room != nil && st.size > 0 {
		p.room(st.size + jobOverhead)
	}
}

// flush routes the records held while detection looked further.
func (p *producer) flush(st *fileState) {
	pending := st.pending
	st.pending, st.unrecognized = nil, nil
	for _, r := range pending {
		if st.format == "" || !st.format.PerFile() {
			if _, bad := lint.DecodeMax(st.name, r, p.opts.Document.MaxValues); bad != nil {
				p.send(job{unit: lint.Unit{File: st.name, Records: []jsonl.Record{r}}})
				continue
			}
		}
		p.route(st, r, nil, false)
	}
}

// undecided ends detection without a format: the finding is reported once,
// and the file's records are checked for syntax only.
func (p *producer) undecided(st *fileState) {
	st.detected, st.format = true, ""
	if st.unrecognized != nil {
		p.send(job{finding: st.unrecognized})
	}
	p.flush(st)
}

func (p *producer) finish(st *fileState) {
	if !st.detected && len(st.pending) > 0 {
		p.undecided(st)
	}
	if len(st.session) > 0 {
		p.send(job{unit: lint.Unit{File: st.name, Format: st.format, Records: st.session, First: st.first, Forced: p.opts.Format != ""}})
		st.session, st.first = nil, nil
	}
}

// mayWait reports whether reading r may wait for its writer (stdin from a
// pipe or a terminal, a named pipe): a regular file or bytes in memory
// never make a reader wait for more.
func mayWait(r io.Reader) bool {
	switch r := r.(type) {
	case *bytes.Reader, *strings.Reader:
		return false
	case *os.File:
		fi, err := r.Stat()
		return err != nil || !fi.Mode().IsRegular()
	}
	return true
}
