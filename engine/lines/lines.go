// Package lines splits a stream into lines the way Python's universal
// newlines mode does: "\n", "\r\n" and a lone "\r" each end a line. Tools
// that read JSONL in text mode count lines this way, so a validator that must
// agree with their line numbers splits the same way.
package lines

import (
	"bytes"
	"io"
)

// Reader returns the lines of a stream one at a time. Lines may be of any
// length: memory is bounded by the longest line, not by the input.
type Reader struct {
	r   io.Reader
	buf []byte // buf[start:end] holds bytes read but not yet returned
	// start, end delimit the unread bytes of buf.
	start, end int
	// skipLF is set after a line ended in "\r" at the end of the buffered
	// bytes: a "\n" read next belongs to that "\r".
	skipLF bool
	err    error
}

const minRead = 64 << 10

// NewReader returns a Reader reading from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: r, buf: make([]byte, 256<<10)}
}

// Next returns the next line without its terminator. The slice is valid only
// until the next call. A last line without a terminator is returned as a
// line; an input ending in a terminator has no empty line after it. After the
// last line Next returns io.EOF, or the read error that stopped it.
func (r *Reader) Next() ([]byte, error) {
	scan := 0 // bytes of buf[start:end] already searched for a terminator
	for {
		if r.skipLF && r.end > r.start {
			if r.buf[r.start] == '\n' {
				r.start++
			}
			r.skipLF = false
		}
		window := r.buf[r.start:r.end]
		if i := terminator(window, scan); i >= 0 {
			line := window[:i]
			if window[i] == '\r' {
				switch {
				case i+1 < len(window):
					if window[i+1] == '\n' {
						i++
					}
				default:
					r.skipLF = true // the "\n" of a "\r\n" may be in the next read
				}
			}
			r.start += i + 1
			return line, nil
		}
		scan = len(window)
		if r.err != nil {
			if len(window) > 0 {
				r.start = r.end
				return window, nil
			}
			return nil, r.err
		}
		r.fill()
	}
}

// Cut splits the first line off b, for input already in memory, by the same
// rules as Reader: line is b up to its first terminator, rest what follows
// that terminator. When b holds no terminator, line is all of b and rest is
// nil.
func Cut(b []byte) (line, rest []byte) {
	i := terminator(b, 0)
	switch {
	case i < 0:
		return b, nil
	case b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n':
		return b[:i], b[i+2:]
	}
	return b[:i], b[i+1:]
}

// terminator returns the index of the first '\n' or '\r' in b at or after
// from, or -1. '\n' is searched with the fast IndexByte; '\r' only before it.
func terminator(b []byte, from int) int {
	b2 := b[from:]
	n := bytes.IndexByte(b2, '\n')
	scope := b2
	if n >= 0 {
		scope = b2[:n]
	}
	if c := bytes.IndexByte(scope, '\r'); c >= 0 {
		return from + c
	}
	if n >= 0 {
		return from + n
	}
	return -1
}

// fill reads more bytes, moving the unread ones to the front or growing the
// buffer when a line does not fit.
func (r *Reader) fill() {
	if r.start > 0 {
		n := copy(r.buf, r.buf[r.start:r.end])
		r.start, r.end = 0, n
	}
	if len(r.buf)-r.end < minRead {
		nb := make([]byte, 2*len(r.buf))
		copy(nb, r.buf[:r.end])
		r.buf = nb
	}
	for tries := 0; tries < 100; tries++ {
		n, err := r.r.Read(r.buf[r.end:])
		r.end += n
		if err != nil {
			r.err = err
			return
		}
		if n > 0 {
			return
		}
	}
	r.err = io.ErrNoProgress
}
