// Package jsonl reads JSON Lines files as a stream of records with their line
// numbers, and reads .json files holding one value or an array of records.
package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Record is one non-blank line (or one element of a JSON array file).
type Record struct {
	// Line is the 1-based line on which the record starts.
	Line int
	// Data holds the record's bytes without the line terminator (and
	// without a leading byte-order mark). For a streaming Reader it is valid
	// only until the next call to Next.
	Data []byte
	// Offset is the byte offset in the input where the line starts.
	Offset int64
	// Raw is the line exactly as read, terminator included (none on a last
	// line without one), so that commands rewriting a file can write back
	// untouched lines byte for byte. Data is a slice of Raw. For a .json
	// array element Raw equals Data.
	Raw []byte
}

// Clone returns a copy of the record that owns its bytes.
func (r Record) Clone() Record {
	if len(r.Raw) < len(r.Data) { // built by hand, without Raw
		r.Data = bytes.Clone(r.Data)
		return r
	}
	// Data is Raw less its terminator and, on the first line, a byte-order mark.
	start := 0
	if bytes.HasPrefix(r.Raw, bom) && !bytes.HasPrefix(r.Data, bom) {
		start = len(bom)
	}
	r.Raw = bytes.Clone(r.Raw)
	r.Data = r.Raw[start : start+len(r.Data) : start+len(r.Data)]
	return r
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// Reader streams the records of a JSONL input. Lines may be of any length;
// memory use is bounded by the longest line, not the input size. CRLF line
// endings and a leading UTF-8 byte-order mark are accepted, blank lines are
// skipped. Validity of the JSON is not checked here.
type Reader struct {
	r      *bufio.Reader
	line   int
	offset int64
	buf    []byte
	err    error
}

// NewReader returns a Reader reading from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 64<<10)}
}

// Next returns the next non-blank record, or io.EOF after the last one.
func (r *Reader) Next() (Record, error) {
	for {
		if r.err != nil {
			return Record{}, r.err
		}
		raw, err := r.readLine()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				r.err = err
				return Record{}, err
			}
			r.err = io.EOF
			if len(raw) == 0 {
				return Record{}, io.EOF
			}
		}
		r.line++
		offset := r.offset
		r.offset += int64(len(raw))
		line := bytes.TrimSuffix(raw, []byte{'\n'})
		if r.line == 1 {
			line = bytes.TrimPrefix(line, bom)
		}
		line = bytes.TrimRight(line, "\r") // CRLF, and CRCRLF from a double conversion
		if isBlank(line) {
			continue
		}
		return Record{Line: r.line, Data: line, Offset: offset, Raw: raw}, nil
	}
}

// readLine returns the next line with its '\n'. The last line may lack a
// terminator, in which case io.EOF is returned with it.
func (r *Reader) readLine() ([]byte, error) {
	chunk, err := r.r.ReadSlice('\n')
	if err == nil {
		return chunk, nil
	}
	if !errors.Is(err, bufio.ErrBufferFull) {
		return chunk, err
	}
	// A long line: gather it in our own buffer, reused across lines.
	r.buf = append(r.buf[:0], chunk...)
	for {
		chunk, err = r.r.ReadSlice('\n')
		r.buf = append(r.buf, chunk...)
		if err == nil {
			return r.buf, nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return r.buf, err
		}
	}
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}
