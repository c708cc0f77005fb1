// Package cmdutil holds what chatlint's commands share: their streams, exit codes
// and usage errors, input expansion, report outputs, the pack flags and the
// flags that must mean one thing in every command (flags.go).
package cmdutil

import (
	"io"
	"os"
)

// IOStreams are the command's standard input and outputs, swapped in tests.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// IsTerminal reports whether w is a character device (a terminal): colour
// (UseColor, on Out) and the progress line (ShowProgress, on ErrOut) need
// one, so a test's buffers never get either.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
