// Command chatlint validates, repairs and converts JSONL datasets of LLM chat
// and agent conversations. Every check is a Rego policy or a YAML rule.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
)

func main() {
	tuneGC()
	stop := startProfile()
	code := run(context.Background(), os.Args[1:], cmdutil.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr})
	stop()
	os.Exit(code)
}

// run executes the command line and returns the exit status.
func run(ctx context.Context, args []string, io cmdutil.IOStreams) int {
	cmd := newRootCmd(io)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(ctx)
	if err == nil {
		return cmdutil.ExitClean
	}
	var ec *cmdutil.ExitCode
	if errors.As(err, &ec) {
		if ec.Err != nil {
			fmt.Fprintln(io.ErrOut, "chatlint:", cmdutil.EscapeLines(ec.Err.Error()))
		}
		return ec.Code
	}
	fmt.Fprintln(io.ErrOut, "chatlint:", cmdutil.EscapeLines(err.Error()))
	return cmdutil.ExitError
}
