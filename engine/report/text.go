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
	bw      *bufio.Writer
	color   bool
	verbose bool
}

func newTextWriter(w io.Writer, o Options) Writer {
	return &textWriter{bw: bufio.NewWriter(w), color: o.Color, verbose: o.Verbose}
}

// ANSI colours of the severities: red, yellow, cyan.
var severityColor = map[finding.Severity]string{finding.Error: "\x1b[31m", finding.Warning: "\x1b[33m", finding.Info: "\x1b[36m"}

func (t *textWriter) Finding(f finding.Finding) error {
	sev := f.Severity.String()
	if t.color {
		sev = severityColor[f.Severity] + sev + "\x1b[0m"
	}
	_, err := fmt.Fprintf(t.bw, "%s:%d: %s %s: %s\n", escapeControls(f.File), f.Line, sev, escapeControls(f.Rule), Clean(f.Message))
	return err
}

func (t *textWriter) Close(s finding.Summary) error {
	writeInputs(t.bw, s, t.verbose)
	fmt.Fprintln(t.bw, summaryLine(s))
	return t.bw.Flush()
}

// writeInputs prints what the summary says of the inputs before its last
// line: every input when verbose, else only those that were not checked
// (an empty file; unreadable inputs are reported on stderr).
func writeInputs(w io.Writer, s finding.Summary, verbose bool) {
	for _, in := range s.Inputs {
		name := escapeControls(in.File)
		switch {
		case in.Warning != "":
			fmt.Fprintf(w, "%s: warning: %s\n", name, in.Warning)
		case !verbose:
		case in.Error != "":
			fmt.Fprintf(w, "%s: not read: %s\n", name, escapeControls(in.Error))
		default:
			format := in.Format
			if format == "" {
				format = "unrecognized format"
			}
			fmt.Fprintf(w, "%s: %s, %s\n", name, format, plural(in.Records, "record"))
		}
	}
}

// summaryLine is the closing line of the text formats: the counts, then
// what was checked, per format.
func summaryLine(s finding.Summary) string {
	line := fmt.Sprintf("%s, %s, %s (%s, %s",
		plural(s.Errors, "error"), plural(s.Warnings, "warning"), plural(s.Infos, "info"),
		plural(s.Files, "file"), plural(s.Records, "record"))
	for _, c := range s.ByFormat() {
		line += fmt.Sprintf("; %s: %s, %s", c.Format, plural(c.Files, "file"), plural(c.Records, "record"))
	}
	return line + ")"
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
