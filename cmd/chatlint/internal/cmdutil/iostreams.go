package cmdutil

import "io"

// IOStreams are the command's standard input and outputs, swapped in tests.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}
