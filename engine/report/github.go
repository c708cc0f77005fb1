package report

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/chatlint/chatlint/engine/finding"
)

// githubWriter prints GitHub Actions workflow commands, so findings show as
// annotations on the pull request's files.
type githubWriter struct {
	bw *bufio.Writer
}

var githubLevel = map[finding.Severity]string{finding.Error: "error", finding.Warning: "warning", finding.Info: "notice"}

func (g *githubWriter) Finding(f finding.Finding) error {
	_, err := fmt.Fprintf(g.bw, "::%s file=%s,line=%d,title=%s::%s\n",
		githubLevel[f.Severity], escapeProperty(f.File), f.Line, escapeProperty(f.Rule), escapeData(f.Message))
	return err
}

func (g *githubWriter) Close(s finding.Summary) error {
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
