package report

import (
	"bufio"
	"fmt"
	"slices"
	"strings"

	"github.com/chatlint/chatlint/engine/finding"
)

// githubWriter prints GitHub Actions workflow commands, so findings show as
// annotations on the pull request's files.
type githubWriter struct {
	bw      *bufio.Writer
	verbose bool
}

var githubLevel = map[finding.Severity]string{finding.Error: "error", finding.Warning: "warning", finding.Info: "notice"}

func (g *githubWriter) Finding(f finding.Finding) error {
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
