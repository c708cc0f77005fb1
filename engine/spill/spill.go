// Package spill holds bytes written in order until their writer is ready for
// them: in memory up to a bound, then in a temporary file, so memory stays
// flat however much is held back. The report writers whose header depends on
// every finding (JSON's summary, SARIF's rule table, JUnit's totals) and fix's
// rejects, kept until the output file is committed, use it.
package spill

import (
	"bytes"
	"io"
	"os"
)

// Memory is how many bytes a Buffer keeps in memory before it moves to a
// temporary file (a variable, so tests can make it spill).
var Memory = 4 << 20

// Buffer holds the bytes written to it, in order; the zero value is ready to
// use and spills to the system's temporary folder.
type Buffer struct {
	// Dir is the folder of the temporary file ("": the system's), Pattern
	// its name as os.CreateTemp takes it ("": chatlint-spill-*.tmp).
	Dir, Pattern string

	mem  bytes.Buffer
	file *os.File
	name string // file's name while it could not be unlinked (Windows); "" once gone
	err  error  // the first write error; later writes are dropped
}

// Write appends p. After an error every write is dropped and returns it.
func (b *Buffer) Write(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.file == nil && b.mem.Len()+len(p) <= Memory {
		return b.mem.Write(p)
	}
	if b.file == nil {
		pattern := b.Pattern
		if pattern == "" {
			pattern = "chatlint-spill-*.tmp"
		}
		f, err := os.CreateTemp(b.Dir, pattern)
		if err != nil {
			b.err = err
			return 0, err
		}
		b.file, b.name = f, f.Name()
		// Unlinked at once where the system allows, so that a killed run
		// leaves nothing behind.
		if os.Remove(b.name) == nil {
			b.name = ""
		}
		if _, err := b.file.Write(b.mem.Bytes()); err != nil {
			b.err = err
			return 0, err
		}
		b.mem = bytes.Buffer{}
	}
	if _, err := b.file.Write(p); err != nil {
		b.err = err
		return 0, err
	}
	return len(p), nil
}

// Err is the first write error, nil when there was none.
func (b *Buffer) Err() error { return b.err }

// Empty reports whether nothing was written.
func (b *Buffer) Empty() bool { return b.file == nil && b.mem.Len() == 0 }

// Spilled reports whether the bytes moved to the temporary file.
func (b *Buffer) Spilled() bool { return b.file != nil }

// WriteTo writes everything held, in order, to w; the Buffer keeps it.
func (b *Buffer) WriteTo(w io.Writer) (int64, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.file == nil {
		n, err := w.Write(b.mem.Bytes())
		return int64(n), err
	}
	if _, err := b.file.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	n, err := io.Copy(w, b.file)
	if err == nil {
		_, err = b.file.Seek(0, io.SeekEnd) // later writes append
	}
	return n, err
}

// ReaderAt gives random access to what was written so far; nothing may be
// written while it is read.
func (b *Buffer) ReaderAt() (io.ReaderAt, error) {
	if b.err != nil {
		return nil, b.err
	}
	if b.file == nil {
		return bytes.NewReader(b.mem.Bytes()), nil
	}
	return b.file, nil
}

// Release drops the memory and the temporary file; the Buffer is empty
// again.
func (b *Buffer) Release() {
	b.mem = bytes.Buffer{}
	if b.file != nil {
		b.file.Close()
		if b.name != "" {
			os.Remove(b.name)
		}
		b.file, b.name = nil, ""
	}
	b.err = nil
}
