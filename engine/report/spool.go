package report

import (
	"bytes"
	"io"
	"os"
)

// spoolMemory is how many bytes a spool keeps in memory before it moves to a
// temporary file. Formats whose header depends on every finding (the JSON
// report's summary, SARIF's rule table) encode each finding as it arrives and
// spool the bytes, so a run's memory does not grow with its findings.
var spoolMemory = 4 << 20

// spool holds encoded findings until the writer's header is known: in memory
// up to spoolMemory, then in an unlinked temporary file.
type spool struct {
	mem  bytes.Buffer
	file *os.File
	name string // file's name while it could not be unlinked (Windows); "" once gone
	n    int    // entries
	err  error  // the first write error; later writes are dropped
}

// add appends one encoded entry.
func (s *spool) add(b []byte) {
	if s.err != nil {
		return
	}
	s.n++
	if s.file == nil && s.mem.Len()+len(b) <= spoolMemory {
		s.mem.Write(b)
		return
	}
	if s.file == nil {
		f, err := os.CreateTemp("", "chatlint-report-*.tmp")
		if err != nil {
			s.err = err
			return
		}
		s.file, s.name = f, f.Name()
		// Unlinked at once where the system allows, so that a killed run
		// leaves nothing behind.
		if os.Remove(s.name) == nil {
			s.name = ""
		}
		if _, err := s.file.Write(s.mem.Bytes()); err != nil {
			s.err = err
			return
		}
		s.mem = bytes.Buffer{}
	}
	if _, err := s.file.Write(b); err != nil {
		s.err = err
	}
}

// copyTo writes every entry, in order, to w and releases the spool.
func (s *spool) copyTo(w io.Writer) error {
	defer s.release()
	if s.err != nil {
		return s.err
	}
	if s.file == nil {
		_, err := w.Write(s.mem.Bytes())
		return err
	}
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(w, s.file)
	return err
}

// release drops the memory and the temporary file.
func (s *spool) release() {
	s.mem = bytes.Buffer{}
	if s.file != nil {
		s.file.Close()
		if s.name != "" {
			os.Remove(s.name)
		}
		s.file, s.name = nil, ""
	}
}

// reader gives random access to the entries spooled so far, in memory or in
// the temporary file; the spool must not be added to while it is read.
func (s *spool) reader() (io.ReaderAt, error) {
	if s.err != nil {
		return nil, s.err
	}
	if s.file == nil {
		return bytes.NewReader(s.mem.Bytes()), nil
	}
	return s.file, nil
}
