// Package repair makes damaged JSONL files parseable again: lines that are not
// JSON are dropped, every other line is kept byte for byte, and a file is only
// rewritten (after a backup, atomically) when something must change.
// It works on the file layer only; changing the records is the job of the
// cleanup packs.
package repair

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/chatlint/chatlint/engine/jsonl"
)

// Record is one unit the scanner decided on: a JSON value to keep, or a line
// that is not JSON and is dropped.
type Record struct {
	// Line is the 1-based physical line (lines end at LF).
	Line int
	// Data holds the bytes to write for a kept record, or the dropped line,
	// without the line ending. It is valid only until the next call to Next.
	Data []byte
	// Kept is false for a dropped line.
	Kept bool
	// Split is true for a record cut out of a line that held several JSON
	// values separated by lone carriage returns.
	Split bool
	// Mended is true for a record whose invalid UTF-8 sequences (inside
	// strings: anywhere else the line would not be JSON) were each replaced
	// by U+FFFD. JSON text is UTF-8 and check rejects such a line; dropping
	// it would lose a whole record (text saved as Latin-1, say) for a few
	// bytes.
	Mended bool
}

// Scanner reads a JSONL input and classifies its lines. Lines end at LF or
// CRLF; blank lines are skipped and not reported. A line that is one JSON
// value as a whole is kept as it is, whatever the value: repair makes a file
// parseable and nothing more, as the transcript repair it replaces does, and
// a value that is no record (42, null, [1, 2]) is check's to report and fix's
// to reject. A line that is not JSON is split at lone CRs when
// every non-blank piece is a JSON object on its own (two records glued together
// by an old-Mac line ending), and dropped whole otherwise: a fragment of a
// broken record is never kept as if it were a record. Invalid UTF-8 in a
// kept record is replaced (see Record.Mended). Memory is bounded by the
// longest line.
type Scanner struct {
	r    *jsonl.Reader
	head *head
	line int
	rest []byte // unread pieces of a line being split at CRs
	err  error
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// NewScanner returns a Scanner reading from r.
func NewScanner(r io.Reader) *Scanner {
	h := &head{r: r}
	return &Scanner{r: jsonl.NewReader(h), head: h}
}

// BOM reports whether the input starts with a UTF-8 byte-order mark. The mark
// is not part of the first record's Data; a rewrite puts it back in front.
// It is known once Next has returned a record.
func (s *Scanner) BOM() bool { return bytes.Equal(s.head.buf[:s.head.n], bom) }

// head passes reads through and keeps the first bytes of the input, so that
// the byte-order mark the JSONL reader strips can be written back.
type head struct {
	r   io.Reader
	buf [3]byte
	n   int
}

func (h *head) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if h.n < len(h.buf) {
		h.n += copy(h.buf[h.n:], p[:n])
	}
	return n, err
}

// Next returns the next record, or io.EOF after the last one. Any other error
// is a read error and is returned again by later calls.
func (s *Scanner) Next() (Record, error) {
	if s.rest != nil {
		return s.nextPiece(), nil
	}
	if s.err != nil {
		return Record{}, s.err
	}
	rec, err := s.r.Next()
	if err != nil {
		s.err = err
		return Record{}, err
	}
	s.line = rec.Line
	if json.Valid(rec.Data) {
		return mend(Record{Line: rec.Line, Data: rec.Data, Kept: true}), nil
	}
	if splittable(rec.Data) {
		s.rest = rec.Data
		return s.nextPiece(), nil
	}
	return Record{Line: rec.Line, Data: rec.Data}, nil
}

// nextPiece returns the next non-blank piece of the line being split. When
// only blank pieces are left after it, the line is done.
func (s *Scanner) nextPiece() Record {
	for {
		piece, rest, _ := bytes.Cut(s.rest, []byte{'\r'})
		s.rest = rest
		if jsonl.IsBlank(s.rest) {
			s.rest = nil
		}
		if !jsonl.IsBlank(piece) {
			return mend(Record{Line: s.line, Data: piece, Kept: true, Split: true})
		}
	}
}

// mend replaces invalid UTF-8 in a kept record. Valid records, nearly all of
// them, are returned as they are, without a copy.
func mend(r Record) Record {
	if !utf8.Valid(r.Data) {
		r.Data = bytes.ToValidUTF8(r.Data, []byte("\uFFFD"))
		r.Mended = true
	}
	return r
}

// splittable reports whether line holds a lone CR and every non-blank piece
// between CRs is valid JSON. The caller has seen that the whole line is not
// valid JSON, so at least two pieces are non-blank.
func splittable(line []byte) bool {
	if bytes.IndexByte(line, '\r') < 0 {
		return false
	}
	for rest := line; ; {
		piece, after, found := bytes.Cut(rest, []byte{'\r'})
		if !jsonl.IsBlank(piece) && !jsonl.IsObject(piece) {
			return false
		}
		if !found {
			return true
		}
		rest = after
	}
}

// Stats counts what a scan found.
type Stats struct {
	Records int // JSON values kept
	Dropped int // lines dropped because they are not JSON
	Split   int // lines cut into several records at lone CRs
	Mended  int // records whose invalid UTF-8 was replaced
}

// Changed reports whether a rewrite would differ from the input in anything
// but blank lines and line endings.
func (st Stats) Changed() bool { return st.Dropped > 0 || st.Split > 0 || st.Mended > 0 }

// Scan reads r to the end and calls visit, when not nil, for every record in
// order. It returns the counts and the first read error, or visit's error.
func Scan(r io.Reader, visit func(Record) error) (Stats, error) {
	return scan(NewScanner(r), visit)
}

func scan(sc *Scanner, visit func(Record) error) (Stats, error) {
	var st Stats
	lastSplit := 0
	for {
		rec, err := sc.Next()
		if errors.Is(err, io.EOF) {
			return st, nil
		}
		if err != nil {
			return st, err
		}
		if rec.Mended {
			st.Mended++
		}
		switch {
		case !rec.Kept:
			st.Dropped++
		case rec.Split:
			st.Records++
			if rec.Line != lastSplit {
				st.Split++
				lastSplit = rec.Line
			}
		default:
			st.Records++
		}
		if visit != nil {
			if err := visit(rec); err != nil {
				return st, err
			}
		}
	}
}
