package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/chatlint/chatlint/engine/finding"
)

// DefaultMaxAnnotations caps the github format. GitHub keeps only 10 error
// and 10 warning annotations per step and 50 per job, so more lines only
// bury the log.
const DefaultMaxAnnotations = 50

// githubWriter prints GitHub Actions workflow commands, so findings show as
// annotations on the pull request's files. Past the cap it counts findings
// and ends with one notice saying how many were left out.
type githubWriter struct {
	bw      *bufio.Writer
	max     int
	written int
	skipped int
	verbose bool
}

func newGitHubWriter(w io.Writer, o Options) Writer {
	max := o.MaxAnnotations
	if max <= 0 {
		max = DefaultMaxAnnotations
	}
	return &githubWriter{bw: bufio.NewWriter(w), max: max, verbose: o.Verbose}
}

var githubLevel = map[finding.Severity]string{finding.Error: "error", finding.Warning: "warning", finding.Info: "notice"}

func (g *githubWriter) Finding(f finding.Finding) error {
	if g.written >= g.max {
		g.skipped++
		return nil
	}
	g.written++
	_, err := fmt.Fprintf(g.bw, "::%s file=%s,line=%d,title=%s::%s\n",
		githubLevel[f.Severity], escapeProperty(escapeControls(f.File)), f.Line, escapeProperty(escapeControls(f.Rule)), escapeData(Clean(f.Message)))
	return err
}

func (g *githubWriter) Close(s finding.Summary) error {
	for _, in := range s.Inputs {
		if in.Warning != "" {
			fmt.Fprintf(g.bw, "::warning file=%s,title=empty input::%s\n", escapeProperty(escapeControls(in.File)), escapeData(in.Warning))
		}
	}
	if g.verbose {
		writeInputs(g.bw, finding.Summary{Inputs: slices.DeleteFunc(slices.Clone(s.Inputs), func(in finding.Input) bool { return in.Warning != "" })}, true)
	}
	if g.skipped > 0 {
		fmt.Fprintf(g.bw, "::notice title=chatlint::%s\n", escapeData(fmt.Sprintf(
			"%d more findings are not shown as annotations (the first %d are); write them all with -o json=FILE or -o sarif=FILE",
			g.skipped, g.max)))
	}
	fmt.Fprintln(g.bw, summaryLine(s))
	return g.bw.Flush()
}

// Escaping as the Actions runner expects (toolkit/core command.ts).
var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func escapeData(s string) string     { return dataEscaper.Replace(s) }
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }
