package convert

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"

	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/report"
)

// integrityReport collects the report lines of a run: each line goes to
// standard output as it comes, and to integrity-report.txt and
// integrity-report.json (the shape of `check -o json`) at the end.
type integrityReport struct {
	opts                    *Options
	txt                     bytes.Buffer
	findings                []finding.Finding
	errors, warnings, total int
}

func newReport(o *Options) *integrityReport { return &integrityReport{opts: o} }

// add prints one line: SEVERITY<TAB>session=SCENARIO<TAB>input=PATH<TAB>MESSAGE.
func (r *integrityReport) add(oc outcome, f Finding) error {
	// Session ids, file names and messages come from the data: their
	// control characters are escaped, or an ESC or newline in one would
	// reach the terminal and forge lines of integrity-report.txt.
	line := fmt.Sprintf("%s\tsession=%s\tinput=%s\t%s\n", f.Severity(),
		report.EscapeControls(oc.scenario), report.EscapeControls(oc.session.Path), report.EscapeControls(f.Message))
	if _, err := io.WriteString(r.opts.Stdout, line); err != nil {
		return err
	}
	r.txt.WriteString(line)
	r.total++
	sev := finding.Warning
	if f.Error {
		r.errors++
		sev = finding.Error
	} else {
		r.warnings++
	}
	pack := "integrity"
	switch f.Rule {
	case "log-entry-skipped", "session-invalid":
		pack = "convert"
	}
	r.findings = append(r.findings, finding.Finding{
		Rule: f.Rule, Severity: sev, Message: f.Message, File: oc.session.Path,
		Line: max(f.Line, 1), Pack: pack, Record: oc.scenario,
	})
	return nil
}

// write writes the report files when integrity analysis is on.
func (r *integrityReport) write(res Result) error {
	if !r.opts.Integrity {
		return nil
	}
	if err := writeFile(filepath.Join(r.opts.Output, IntegrityReportName), func(w io.Writer) error {
		_, err := w.Write(r.txt.Bytes())
		return err
	}); err != nil {
		return err
	}
	return writeFile(filepath.Join(r.opts.Output, IntegrityJSONName), func(w io.Writer) error {
		jw, err := report.New("json", w)
		if err != nil {
			return err
		}
		for _, f := range r.findings {
			if err := jw.Finding(f); err != nil {
				return err
			}
		}
		return jw.Close(finding.Summary{Files: res.Sessions, Records: res.Records, Errors: r.errors, Warnings: r.warnings})
	})
}
