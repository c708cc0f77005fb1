package main

import "io"

// streams are the command's standard input and outputs, swapped in tests.
type streams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
}
