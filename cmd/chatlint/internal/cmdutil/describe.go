package cmdutil

import (
	"errors"
	"os"
)

// PathOf names the input an expansion error is about.
func PathOf(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Path
	}
	return err.Error()
}
