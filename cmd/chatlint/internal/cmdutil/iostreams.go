// Package cmdutil holds what chatlint's commands share: their streams, exit codes
// and usage errors, input expansion, report outputs, the pack flags and the
// flags that must mean one thing in every command (flags.go).
package cmdutil

import "io"

// IOStreams are the command's standard input and outputs, swapped in tests.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}
