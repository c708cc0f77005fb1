package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/chatlint/chatlint/engine/report"
)

// noteSkipped says on stderr which entries of a folder were skipped
// although named like data (a FIFO, a device, a socket, a broken link): a
// skipped input is never silent.
func noteSkipped(stderr io.Writer, skipped []string) {
	for _, p := range skipped {
		fmt.Fprintf(stderr, "chatlint: note: %s skipped: not a regular file (a FIFO, device, socket or broken link)\n", report.EscapeControls(p))
	}
}

// missingInputs is the usage error when nothing named on the command line
// exists: nothing is run and no summary printed, which read as if a run had
// found the inputs clean. (When some inputs exist they are checked and the
// summary lists the missing ones with their error.)
func missingInputs(paths []string, errs []error) error {
	var missing []string
	for _, err := range errs {
		var pe *fs.PathError
		if errors.As(err, &pe) && errors.Is(err, fs.ErrNotExist) && slices.Contains(paths, pe.Path) {
			missing = append(missing, report.EscapeControls(pe.Path))
		}
	}
	switch len(missing) {
	case 0:
		return nil
	case 1:
		return usageError("%s: no such file or directory", missing[0])
	}
	return usageError("no such files or directories: %s", strings.Join(missing, ", "))
}

// escapeLines escapes the control characters of each line of s, keeping
// the line breaks: for messages of several lines (a compile error per line)
// that name files or quote data.
func escapeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = report.EscapeControls(l)
	}
	return strings.Join(lines, "\n")
}
