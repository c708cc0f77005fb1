package jsonl

import (
	"bytes"
	"crypto/sha256"
	"hash"
	"io"
	"sync"
)

// Split is how a Reader cuts its input into lines.
type Split int

const (
	// SplitLF is JSON Lines: "\n" ends a line, and CRs before it belong to
	// the terminator ("\r\n", "\r\r\n" from a double conversion). A lone
	// "\r" is part of the line.
	SplitLF Split = iota
	// SplitUniversal is Python's universal newlines: "\n", "\r\n" and a
	// lone "\r" each end a line. A command that must agree with the line
	// numbers of a Python tool reading in text mode (validate-input) splits
	// this way.
	SplitUniversal
)

// Cut splits the first line off b, for input already in memory, by the
// same rules as a Reader with this split: line is b up to its first
// terminator (without it), rest what follows the terminator. When b holds
// no terminator, line is all of b and rest is nil.
func (s Split) Cut(b []byte) (line, rest []byte) {
	if s == SplitUniversal {
		i := terminator(b, 0)
		switch {
		case i < 0:
			return b, nil
		case b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n':
			return b[:i], b[i+2:]
		}
		return b[:i], b[i+1:]
	}
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return b, nil
	}
	return bytes.TrimRight(b[:i], "\r"), b[i+1:]
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

// universal reads lines ending in "\n", "\r\n" or "\r". bufio.Reader can
// only split on one byte, so it keeps its own buffer; memory is bounded by
// the longest line kept, as for SplitLF.
type universal struct {
	r io.Reader
	// buf[start:end] holds bytes read but not yet returned.
	buf        []byte
	start, end int
	err        error
}

const minRead = 64 << 10

func newUniversal(r io.Reader) *universal {
	buf, _ := universalBufs.Get().(*[]byte)
	if buf == nil {
		b := make([]byte, 256<<10)
		buf = &b
	}
	return &universal{r: r, buf: *buf}
}

// universalBufs keeps the buffers of readers that reached their end: a run
// over thousands of small files (convert's sessions) reads each with a
// buffer another file's reader left, instead of allocating and collecting
// one per file.
var universalBufs sync.Pool

// release hands the buffer back for another reader, once no line of it is
// returned any more (the Reader's end: a record's bytes are valid until the
// next call to Next). A buffer a long line grew is let go.
func (u *universal) release() {
	if u.buf != nil && cap(u.buf) <= 1<<20 {
		b := u.buf[:cap(u.buf)]
		universalBufs.Put(&b)
	}
	u.buf, u.start, u.end = nil, 0, 0
}

// readLine returns the next line with its terminator, as Reader.readLine
// does: io.EOF comes with a last line that has none; a line over max is read
// to its end and dropped, skipped and sum then say what it was, and term is
// the length of the terminator that ended it (0 at the end of the input).
func (u *universal) readLine(max int) (line []byte, skipped int64, sum [sha256.Size]byte, term int, err error) {
	scan := 0 // bytes of the window already searched for a terminator
	var h hash.Hash
	for {
		window := u.buf[u.start:u.end]
		i := terminator(window, scan)
		if i >= 0 && window[i] == '\r' && i+1 == len(window) && u.err == nil {
			// The "\n" of a "\r\n" may come with the next read.
			scan = i
			u.fill()
			continue
		}
		if i >= 0 {
			end := i + 1
			if window[i] == '\r' && end < len(window) && window[end] == '\n' {
				end++
			}
			u.start += end
			switch {
			case h != nil:
				h.Write(window[:i])
				return nil, skipped + int64(i), sumOf(h), end - i, nil
			case i > max:
				return nil, int64(i), sha256.Sum256(window[:i]), end - i, nil
			}
			return window[:end], 0, sum, 0, nil
		}
		if u.err != nil {
			u.start = u.end
			switch {
			case h != nil:
				h.Write(window)
				return nil, skipped + int64(len(window)), sumOf(h), 0, u.err
			case len(window) > max:
				return nil, int64(len(window)), sha256.Sum256(window), 0, u.err
			}
			return window, 0, sum, 0, u.err
		}
		if h != nil || len(window) > max {
			// Over the bound: keep only its length and hash, and the
			// buffer at its size.
			if h == nil {
				h = sha256.New()
			}
			h.Write(window)
			skipped += int64(len(window))
			u.start, scan = u.end, 0
		} else {
			scan = len(window)
		}
		u.fill()
	}
}

func sumOf(h hash.Hash) (sum [sha256.Size]byte) {
	h.Sum(sum[:0])
	return sum
}

// fill reads more bytes, moving the unread ones to the front or growing the
// buffer when a line does not fit.
func (u *universal) fill() {
	if u.start > 0 {
		n := copy(u.buf, u.buf[u.start:u.end])
		u.start, u.end = 0, n
	}
	if len(u.buf)-u.end < minRead {
		nb := make([]byte, 2*len(u.buf))
		copy(nb, u.buf[:u.end])
		u.buf = nb
	}
	for tries := 0; tries < 100; tries++ {
		n, err := u.r.Read(u.buf[u.end:])
		u.end += n
		if err != nil {
			u.err = err
			return
		}
		if n > 0 {
			return
		}
	}
	u.err = io.ErrNoProgress
}
