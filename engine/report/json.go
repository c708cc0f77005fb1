package report

import (
	"encoding/json"
	"io"

	"github.com/chatlint/chatlint/engine/finding"
)

// jsonWriter prints one JSON object: {"summary": …, "findings": […]}.
// The summary comes first, so findings are encoded as they arrive and
// spooled (memory, then a temporary file) until Close.
type jsonWriter struct {
	w     io.Writer
	spool spool
}

func (j *jsonWriter) Finding(f finding.Finding) error {
	// Indented as json.Encoder with SetIndent("", "  ") lays out the whole
	// object: each finding sits two levels deep.
	b, err := json.MarshalIndent(f, "    ", "  ")
	if err != nil {
		return err
	}
	if j.spool.n == 0 {
		j.spool.add(append([]byte("\n    "), b...))
	} else {
		j.spool.add(append([]byte(",\n    "), b...))
	}
	return j.spool.err
}

func (j *jsonWriter) Close(s finding.Summary) error {
	defer j.spool.release()
	sum, err := json.MarshalIndent(s, "  ", "  ")
	if err != nil {
		return err
	}
	head := append(append([]byte("{\n  \"summary\": "), sum...), ",\n  \"findings\": ["...)
	if _, err := j.w.Write(head); err != nil {
		return err
	}
	tail := "]\n}\n"
	if j.spool.n > 0 {
		if err := j.spool.copyTo(j.w); err != nil {
			return err
		}
		tail = "\n  ]\n}\n"
	}
	_, err = io.WriteString(j.w, tail)
	return err
}
