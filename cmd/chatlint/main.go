// Command chatlint validates, repairs and converts JSONL datasets of LLM chat
// and agent conversations. Every check is a Rego policy or a YAML rule.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
)

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

func main() {
	tuneGC()
	stop := startProfile()
	code := run(context.Background(), os.Args[1:], streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
	stop()
	os.Exit(code)
}

// run executes the command line and returns the exit status.
func run(ctx context.Context, args []string, io streams) int {
	cmd := newRootCmd(io)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(ctx)
	if err == nil {
		return exitClean
	}
	var ec *exitCode
	if errors.As(err, &ec) {
		if ec.err != nil {
			fmt.Fprintln(io.Err, "chatlint:", escapeLines(ec.err.Error()))
		}
		return ec.code
	}
	fmt.Fprintln(io.Err, "chatlint:", escapeLines(err.Error()))
	return exitError
}
