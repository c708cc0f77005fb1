package main

import (
	"errors"
	"os"
)

// pathOf names the input an expansion error is about.
func pathOf(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Path
	}
	return err.Error()
}

// describe words a read error the way users expect ("open x: no such file").
func describe(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Op + " " + pe.Path + ": " + pe.Err.Error()
	}
	return err.Error()
}
