// Package jsonl reads JSON Lines files as a stream of records with their line
// numbers, and reads .json files holding one value or an array of records.
package jsonl

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"strings"
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
	// End is what ended the line after Data: "\n", "\r\n" (or more CRs
	// before the LF), or "" for a last line without one: the tail of Raw,
	// named without allocating, for writers that put a record back with its
	// own ending.
	End string
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

// DefaultMaxLineSize bounds a line by default: far above any real record
// (the longest seen in public datasets are a few hundred KB), low enough that
// a stream with no newline cannot exhaust memory.
const DefaultMaxLineSize = 64 << 20

// LineTooLongError is a line longer than the Reader's bound. It was read
// past without being held in memory; the next call to Next goes on with the
// next line, so a caller may report it and continue, or stop (repair, which
// cannot keep what it did not hold, stops and leaves the file untouched).
type LineTooLongError struct {
	Line   int
	Offset int64
	// Size is the length of the line without its terminator, as far as it
	// was read (to the end of the input when it has no terminator).
	Size int64
	Max  int
	// Sum is the SHA-256 of those Size bytes, so that a caller can still
	// tell this line from others (a baseline's key) without having kept it.
	Sum [sha256.Size]byte
}

func (e *LineTooLongError) Error() string {
	return fmt.Sprintf("line %d is %d bytes long, over the limit of %d bytes", e.Line, e.Size, e.Max)
}

// Reader streams the records of a JSONL input. Lines may be of any length up
// to a bound (DefaultMaxLineSize unless SetMaxLineSize changes it); memory
// use is bounded by the longest line, not the input size. A longer line is
// skipped, reading on to its end without keeping it, and Next reports it as
// a *LineTooLongError before going on. CRLF line endings and a leading UTF-8
// byte-order mark are accepted, blank lines are skipped. Validity of the
// JSON is not checked here.
type Reader struct {
	r      *bufio.Reader
	line   int
	offset int64
	buf    []byte
	err    error
	max    int
	owned  bool // the last record's bytes were handed over (see Owned)
	src    io.Reader
	// uni reads the lines instead of r under SplitUniversal.
	uni *universal
	// keepBlank hands blank lines on as records (SetKeepBlank).
	keepBlank bool
	// layout is what the file holds besides records (layout.go).
	layout Layout
}

// NewReader returns a Reader reading from r.
func NewReader(r io.Reader) *Reader {
	// The buffer is made at the first read, for the split in use: a run
	// over thousands of small files (convert's sessions) would otherwise
	// allocate both readers' buffers per file, and collect them.
	return &Reader{max: DefaultMaxLineSize, src: r}
}

// SetSplit sets how lines end (SplitLF unless set); call it before the
// first Next.
func (r *Reader) SetSplit(s Split) {
	r.uni = nil
	if s == SplitUniversal {
		r.uni = newUniversal(r.src)
	}
}

// SetKeepBlank makes Next return blank lines as records too (Data holds
// their white space), for a command that reports on every line.
func (r *Reader) SetKeepBlank(keep bool) { r.keepBlank = keep }

// SetMaxLineSize sets the longest line (without its terminator) Next
// returns; n <= 0 restores the default.
func (r *Reader) SetMaxLineSize(n int) {
	if n <= 0 {
		n = DefaultMaxLineSize
	}
	r.max = n
}

// handOver is the size above which a line gathered in the reader's own
// buffer is handed over to the caller instead of kept for reuse.
const handOver = 1 << 20

// Owned reports whether the record Next returned last owns its bytes: the
// reader will not reuse them, so a caller keeping the record needs no
// Clone. It is true for big lines, whose copy would double their memory.
func (r *Reader) Owned() bool { return r.owned }

// Next returns the next non-blank record, or io.EOF after the last one.
func (r *Reader) Next() (Record, error) {
	for {
		if r.err != nil {
			if r.uni != nil {
				r.uni.release()
			}
			return Record{}, r.err
		}
		var raw []byte
		var skipped int64
		var sum [sha256.Size]byte
		var err error
		term := 1
		if r.uni != nil {
			r.owned = false
			raw, skipped, sum, term, err = r.uni.readLine(r.max)
		} else {
			raw, skipped, sum, err = r.readLine()
		}
		if skipped > 0 {
			r.line++
			tl := &LineTooLongError{Line: r.line, Offset: r.offset, Size: skipped, Max: r.max, Sum: sum}
			r.offset += skipped
			switch {
			case err == nil:
				r.offset += int64(term)
			case errors.Is(err, io.EOF):
				r.err = io.EOF
			default:
				r.err = err
			}
			return Record{Line: tl.Line, Offset: tl.Offset}, tl
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				r.err = err
				return Record{}, err
			}
			r.err = io.EOF
			if len(raw) == 0 {
				if r.uni != nil {
					r.uni.release()
				}
				return Record{}, io.EOF
			}
		}
		r.line++
		offset := r.offset
		r.offset += int64(len(raw))
		line := bytes.TrimSuffix(raw, []byte{'\n'})
		if r.line == 1 && bytes.HasPrefix(line, bom) {
			line = line[len(bom):]
			r.layout.BOM = true
		}
		full := len(line)
		line = bytes.TrimRight(line, "\r") // CRLF, and CRCRLF from a double conversion
		if IsBlank(line) && !r.keepBlank {
			r.skipBlank(r.line)
			continue
		}
		lf := bytes.HasSuffix(raw, []byte{'\n'})
		return Record{Line: r.line, Data: line, Offset: offset, Raw: raw, End: lineEnd(full-len(line), lf)}, nil
	}
}

// readLine returns the next line with its '\n'. The last line may lack a
// terminator, in which case io.EOF is returned with it. A line longer than
// the bound is read to its end and dropped: skipped is then its length
// without the terminator, sum the SHA-256 of those bytes, and err is nil
// when a terminator ended it.
func (r *Reader) readLine() (line []byte, skipped int64, sum [sha256.Size]byte, err error) {
	r.owned = false
	if r.r == nil {
		r.r = bufio.NewReaderSize(r.src, 64<<10)
	}
	chunk, err := r.r.ReadSlice('\n')
	if err == nil || !errors.Is(err, bufio.ErrBufferFull) {
		if n := contentLen(chunk, err); n > r.max {
			return nil, int64(n), sha256.Sum256(chunk[:n]), err
		}
		return chunk, 0, sum, err
	}
	// A long line: gather it in our own buffer, reused across lines, as
	// long as it stays within the bound.
	r.buf = append(r.buf[:0], chunk...)
	for {
		chunk, err = r.r.ReadSlice('\n')
		if len(r.buf)+contentLen(chunk, err) > r.max {
			n, sum, err := r.discard(chunk, err)
			return nil, n, sum, err
		}
		r.buf = append(r.buf, chunk...)
		if err == nil || !errors.Is(err, bufio.ErrBufferFull) {
			line := r.buf
			if cap(r.buf) > handOver {
				// A big line's buffer goes to the caller rather than
				// being copied by it and kept here: a run of 60 MB
				// records held three copies of one.
				r.buf, r.owned = nil, true
			}
			return line, 0, sum, err
		}
	}
}

// discard reads on to the end of a line that is over the bound, of which
// r.buf holds the start, keeping only its length and hash; the buffer is
// released.
func (r *Reader) discard(chunk []byte, err error) (int64, [sha256.Size]byte, error) {
	h := sha256.New()
	h.Write(r.buf)
	n := int64(len(r.buf))
	if cap(r.buf) > 1<<20 {
		r.buf = nil // do not keep a bound-sized buffer for normal lines
	}
	for {
		c := contentLen(chunk, err)
		h.Write(chunk[:c])
		n += int64(c)
		if err == nil || !errors.Is(err, bufio.ErrBufferFull) {
			var sum [sha256.Size]byte
			h.Sum(sum[:0])
			return n, sum, err
		}
		chunk, err = r.r.ReadSlice('\n')
	}
}

// contentLen is the length of a chunk without the line terminator ReadSlice
// found (err nil).
func contentLen(chunk []byte, err error) int {
	if err == nil {
		return len(chunk) - 1
	}
	return len(chunk)
}

// lineEnd names a line's terminator without allocating for the usual ones.
func lineEnd(crs int, lf bool) string {
	switch {
	case !lf && crs == 1:
		return "\r" // a lone CR under SplitUniversal
	case !lf:
		return strings.Repeat("\r", crs)
	case crs == 0:
		return "\n"
	case crs == 1:
		return "\r\n"
	}
	return strings.Repeat("\r", crs) + "\n"
}

// IsBlank reports whether a line holds only JSON white space: such a line is
// no record (the reader skips it, and repair neither keeps nor counts it).
func IsBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}
