package cmdutil

import (
	"fmt"
	"strings"

	"github.com/chatlint/chatlint/engine/document"
)

// FormatHelp lists the input formats, one per line, for --help.
func FormatHelp() string {
	var b strings.Builder
	for _, a := range document.Adapters() {
		fmt.Fprintf(&b, "  %-14s %s\n", a.Format, a.Summary)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
