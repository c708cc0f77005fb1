// Package jsonl reads JSON Lines files as a stream of records with their line
// numbers, and reads .json files holding one value or an array of records.
package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
)

// Record is one non-blank line (or one element of a JSON array file).
type Record struct {
	// Line is the 1-based line on which the record starts.
	Line int
	// Data holds the record's bytes without the line terminator. For a
	// streaming Reader it is valid only until the next call to Next.
	Data []byte
	// End is what ended the line after Data: "\n", "\r\n" (or more CRs
	// before the LF), or "" for a last line without one. Data+End are the
	// line's bytes, so a command that rewrites a file can keep untouched
	// lines exactly.
	End string
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// Reader streams the records of a JSONL input. Lines may be of any length;
// memory use is bounded by the longest line, not the input size. CRLF line
// endings and a leading UTF-8 byte-order mark are accepted, blank lines are
// skipped. Validity of the JSON is not checked here.
type Reader struct {
	r    *bufio.Reader
	line int
	buf  []byte
	err  error
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
		line, err := r.readLine()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				r.err = err
				return Record{}, err
			}
			r.err = io.EOF
			if len(line) == 0 {
				return Record{}, io.EOF
			}
		}
		r.line++
		if r.line == 1 {
			line = bytes.TrimPrefix(line, bom)
		}
		full := len(line)
		line = bytes.TrimRight(line, "\r") // CRLF, and CRCRLF from a double conversion
		if isBlank(line) {
			continue
		}
		return Record{Line: r.line, Data: line, End: lineEnd(full-len(line), r.err == nil)}, nil
	}
}

// readLine returns the next line without its '\n'. The last line may lack a
// terminator, in which case io.EOF is returned with it.
func (r *Reader) readLine() ([]byte, error) {
	chunk, err := r.r.ReadSlice('\n')
	if err == nil {
		return chunk[:len(chunk)-1], nil
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
			return r.buf[:len(r.buf)-1], nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return r.buf, err
		}
	}
}

// lineEnd names a line's terminator without allocating for the usual ones.
func lineEnd(crs int, lf bool) string {
	switch {
	case !lf:
		return strings.Repeat("\r", crs)
	case crs == 0:
		return "\n"
	case crs == 1:
		return "\r\n"
	}
	return strings.Repeat("\r", crs) + "\n"
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}
