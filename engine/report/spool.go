package report

import (
	"io"

	"github.com/chatlint/chatlint/engine/spill"
)

// spool holds encoded findings until the writer's header is known
// (spill.Buffer: in memory, then in an unlinked temporary file), and counts
// them. Formats whose header depends on every finding (the JSON report's
// summary, SARIF's rule table) encode each finding as it arrives and spool
// the bytes, so a run's memory does not grow with its findings.
type spool struct {
	buf spill.Buffer
	n   int   // entries
	err error // the first write error; later entries are dropped
}

// add appends one encoded entry.
func (s *spool) add(b []byte) {
	if s.err != nil {
		return
	}
	s.n++
	if s.buf.Pattern == "" {
		s.buf.Pattern = "chatlint-report-*.tmp"
	}
	_, s.err = s.buf.Write(b)
}

// copyTo writes every entry, in order, to w and releases the spool.
func (s *spool) copyTo(w io.Writer) error {
	defer s.release()
	if s.err != nil {
		return s.err
	}
	_, err := s.buf.WriteTo(w)
	return err
}

// release drops the memory and the temporary file.
func (s *spool) release() { s.buf.Release() }

// reader gives random access to the entries spooled so far; the spool must
// not be added to while it is read.
func (s *spool) reader() (io.ReaderAt, error) {
	if s.err != nil {
		return nil, s.err
	}
	return s.buf.ReaderAt()
}
