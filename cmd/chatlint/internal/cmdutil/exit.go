package cmdutil

import "fmt"

// Exit codes, as linters use them.
const (
	ExitClean    = 0 // nothing at or above the fail level
	ExitFindings = 1 // findings at or above the fail level
	ExitError    = 2 // usage, configuration, policy or input errors
)

// ExitCode carries a command's exit status through cobra.
type ExitCode struct {
	Code int
	Err  error // printed when not nil
}

func (e *ExitCode) Error() string {
	if e.Err != nil {
		return e.Err.Error()
	}
	return fmt.Sprintf("exit status %d", e.Code)
}

func UsageError(format string, args ...any) error {
	return &ExitCode{Code: ExitError, Err: fmt.Errorf(format, args...)}
}
