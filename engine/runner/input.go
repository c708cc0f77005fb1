package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/jsonl"
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
	file    string
	format  document.Format // "" for a file in no known format
	records []jsonl.Record  // data owned by the job
	finding *finding.Finding
	end     bool  // the last job of an input (see Job.End)
	err     error // with end: why the input could not be read to its end
}

type producer struct {
	opts   Options
	jobs   chan<- job
	tokens chan struct{}
	seq    uint64
	counts *progress
}

func (p *producer) send(j job) {
	p.tokens <- struct{}{}
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
				f := coreFinding(RuleSyntax, in.Name, se.Line, "invalid JSON: "+se.Msg)
				p.send(job{file: in.Name, finding: &f})
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
		rec.Data = bytes.Clone(rec.Data)
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
	if !st.detected {
		v, err := astjson.Decode(rec.Data)
		obj, isObj := v.(ast.Object)
		if err != nil || !isObj {
			p.send(job{file: st.name, records: []jsonl.Record{rec}}) // reported as a syntax finding
			return
		}
		st.detected = true
		if f, ok := document.Detect(obj); ok {
			st.format = f
		} else {
			f := coreFinding(RuleUnrecognized, st.name, rec.Line, fmt.Sprintf(
				"unrecognized format: the first record has keys {%s}; expected chat, proxy-log, agent-session or contract (force one with --format)",
				document.Keys(obj)))
			p.send(job{file: st.name, finding: &f})
		}
	}
	if st.format.PerFile() {
		st.session = append(st.session, rec)
		return
	}
	p.send(job{file: st.name, format: st.format, records: []jsonl.Record{rec}})
}

func (p *producer) finish(st *fileState) {
	if len(st.session) > 0 {
		p.send(job{file: st.name, format: st.format, records: st.session})
		st.session = nil
	}
}

// decodeRecord decodes one record, or returns the finding that says why it
// is not a JSON object.
func decodeRecord(file string, rec jsonl.Record) (ast.Object, *finding.Finding) {
	v, err := astjson.Decode(rec.Data)
	if err != nil {
		f := coreFinding(RuleSyntax, file, rec.Line, "invalid JSON: "+err.Error())
		return nil, &f
	}
	obj, ok := v.(ast.Object)
	if !ok {
		f := coreFinding(RuleSyntax, file, rec.Line, fmt.Sprintf("a record must be a JSON object, not %s", kind(v)))
		return nil, &f
	}
	return obj, nil
}

func kind(v ast.Value) string {
	switch v.(type) {
	case *ast.Array:
		return "an array"
	case ast.String:
		return "a string"
	case ast.Number:
		return "a number"
	case ast.Boolean:
		return "a boolean"
	case ast.Null:
		return "null"
	}
	return "a value"
}
