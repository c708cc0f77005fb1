package report

import (
	"bufio"
	"fmt"
	"io"

	"github.com/chatlint/chatlint/engine/finding"
)

// textWriter prints one finding per line, `file:line: severity rule: message`,
// the way compilers and linters do, so editors and CI annotate the line.
// With Color, the severity is coloured; the text is otherwise the same.
type textWriter struct {
	bw    *bufio.Writer
	color bool
}

func newTextWriter(w io.Writer, o Options) Writer {
	return &textWriter{bw: bufio.NewWriter(w), color: o.Color}
}

// ANSI colours of the severities: red, yellow, cyan.
var severityColor = map[finding.Severity]string{finding.Error: "\x1b[31m", finding.Warning: "\x1b[33m", finding.Info: "\x1b[36m"}

func (t *textWriter) Finding(f finding.Finding) error {
	sev := f.Severity.String()
	if t.color {
		sev = severityColor[f.Severity] + sev + "\x1b[0m"
	}
	_, err := fmt.Fprintf(t.bw, "%s:%d: %s %s: %s\n", f.File, f.Line, sev, f.Rule, f.Message)
	return err
}

func (t *textWriter) Close(s finding.Summary) error {
	fmt.Fprintln(t.bw, summaryLine(s))
	return t.bw.Flush()
}

// summaryLine is the closing line of the text formats.
func summaryLine(s finding.Summary) string {
	return fmt.Sprintf("%s, %s, %s (%s, %s)",
		plural(s.Errors, "error"), plural(s.Warnings, "warning"), plural(s.Infos, "info"),
		plural(s.Files, "file"), plural(s.Records, "record"))
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
