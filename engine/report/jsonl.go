package report

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/chatlint/chatlint/engine/finding"
)

// jsonlWriter prints one finding per line as it comes, for runs too large to
// hold in memory and for tools that read line by line. There is no summary
// line: every line is a finding, and the exit status says the rest.
type jsonlWriter struct {
	bw  *bufio.Writer
	enc *json.Encoder
}

func newJSONLWriter(w io.Writer, _ Options) Writer {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &jsonlWriter{bw: bw, enc: enc}
}

func (j *jsonlWriter) Finding(f finding.Finding) error {
	if err := j.enc.Encode(f); err != nil {
		return err
	}
	// Flushed per finding so a reader (tail -f, a pipe) sees it at once.
	return j.bw.Flush()
}

func (j *jsonlWriter) Close(finding.Summary) error { return j.bw.Flush() }
