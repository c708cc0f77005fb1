package jsonl

import "bytes"

// Ready reports whether Next can return without reading from the source: a
// whole record (or the end of the input, or an error) is already buffered.
// A caller that gathers records to hand them on in bunches hands on what it
// has before Next would wait on a slow stream (a pipe, a terminal), so that
// nothing read is held back until more input comes. It may say false where
// Next would not wait (nothing was read yet), never true where it would.
func (r *Reader) Ready() bool {
	if r.err != nil {
		return true
	}
	if r.uni != nil {
		return r.uni.ready(r.keepBlank)
	}
	if r.r == nil {
		return false
	}
	buf, _ := r.r.Peek(r.r.Buffered())
	for {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			return false // a line not yet ended: Next reads on
		}
		if r.keepBlank || !IsBlank(buf[:i]) {
			return true
		}
		buf = buf[i+1:] // Next skips a blank line and reads on
	}
}

// ready is Ready under SplitUniversal.
func (u *universal) ready(keepBlank bool) bool {
	if u.err != nil {
		return true
	}
	buf := u.buf[u.start:u.end]
	for {
		i := terminator(buf, 0)
		if i < 0 || (buf[i] == '\r' && i+1 == len(buf)) {
			return false // no end yet, or a "\r" whose "\n" may come next
		}
		if keepBlank || !IsBlank(buf[:i]) {
			return true
		}
		if buf[i] == '\r' && buf[i+1] == '\n' {
			i++
		}
		buf = buf[i+1:]
	}
}
