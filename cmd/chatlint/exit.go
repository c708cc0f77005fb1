package main

import "fmt"

// Exit codes, as linters use them.
const (
	exitClean    = 0 // nothing at or above the fail level
	exitFindings = 1 // findings at or above the fail level
	exitError    = 2 // usage, configuration, policy or input errors
)

// exitCode carries a command's exit status through cobra.
type exitCode struct {
	code int
	err  error // printed when not nil
}

func (e *exitCode) Error() string {
	if e.err != nil {
		return e.err.Error()
	}
	return fmt.Sprintf("exit status %d", e.code)
}

func usageError(format string, args ...any) error {
	return &exitCode{code: exitError, err: fmt.Errorf(format, args...)}
}
