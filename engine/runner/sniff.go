package runner

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
)

// sniff looks at the head of a file before it is read as records: a file
// that is not JSON Lines (binary, Markdown, one pretty-printed JSON document
// under a name that is not read as one) gets one not-jsonl finding instead
// of one jsonl-syntax finding per line, and is not read further (done).
// Only a file that can be read again from its start is sniffed: a stream is
// read as it comes. The drop-in commands (EveryLine) read every line as
// their reference does, and are not sniffed.
func (p *producer) sniff(name string, r io.Reader, st *fileState, max int) (done bool, err error) {
	rs, ok := r.(io.ReadSeeker)
	if !ok || p.opts.EveryLine || mayWait(r) {
		return false, nil
	}
	head := make([]byte, jsonl.SniffSize)
	k, err := io.ReadFull(rs, head)
	eof := errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
	if err != nil && !eof {
		return false, fmt.Errorf("%s: %w", name, err)
	}
	head = head[:k]
	s := jsonl.Sniff(name, head, eof)
	var what string
	switch {
	case s.Kind == jsonl.Binary || s.Kind == jsonl.Text:
		what = s.What
	case s.Kind == jsonl.MaybeDocument && !jsonl.IsJSONDocument(name):
		// Only reading it whole tells a pretty-printed document from JSON
		// Lines whose first line is broken; the bound is the one a .json
		// document has.
		if _, err := rs.Seek(0, io.SeekStart); err != nil {
			return false, fmt.Errorf("%s: %w", name, err)
		}
		data, err := io.ReadAll(io.LimitReader(rs, int64(max)+1))
		if err != nil {
			return false, fmt.Errorf("%s: %w", name, err)
		}
		if doc, ok := jsonl.Document(data); ok {
			what = doc + ", not JSON Lines; name it .json to read it as one document"
		}
	}
	if what == "" {
		_, err := rs.Seek(0, io.SeekStart)
		return false, err
	}
	p.notJSONL(name, what, head, st)
	return true, nil
}

// notJSONL reports a file that is not JSON Lines, once, and marks it read.
func (p *producer) notJSONL(name, what string, head []byte, st *fileState) {
	f := lint.NotJSONLFinding(name, "the file is "+what)
	f.RecordHash = finding.HashRecord(head)
	p.send(job{finding: &f})
	st.skipped = true
}

// sniffHead is sniff for a stored file that cannot seek (Input.Stored): its
// head is peeked from br, which the caller reads on from its start. A file
// that is binary or text is told so; one that may be a pretty-printed JSON
// document is read as JSON Lines, as telling it needs the file whole.
func (p *producer) sniffHead(name string, br *bufio.Reader, st *fileState) (done bool) {
	if p.opts.EveryLine {
		return false
	}
	head, err := br.Peek(jsonl.SniffSize)
	if err != nil && !errors.Is(err, io.EOF) {
		return false // the read that follows reports it
	}
	s := jsonl.Sniff(name, head, err != nil)
	if s.Kind != jsonl.Binary && s.Kind != jsonl.Text {
		return false
	}
	p.notJSONL(name, s.What, head, st)
	return true
}
