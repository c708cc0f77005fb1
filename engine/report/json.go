package report

import (
	"encoding/json"
	"io"

	"github.com/chatlint/chatlint/engine/finding"
)

// jsonWriter prints one JSON object: {"summary": …, "findings": […]}.
// Findings are held until Close because the summary comes first.
type jsonWriter struct {
	w        io.Writer
	findings []finding.Finding
}

func (j *jsonWriter) Finding(f finding.Finding) error {
	j.findings = append(j.findings, f)
	return nil
}

func (j *jsonWriter) Close(s finding.Summary) error {
	if j.findings == nil {
		j.findings = []finding.Finding{}
	}
	enc := json.NewEncoder(j.w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Summary  finding.Summary   `json:"summary"`
		Findings []finding.Finding `json:"findings"`
	}{s, j.findings})
}
