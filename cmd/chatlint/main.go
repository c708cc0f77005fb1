// Command chatlint validates, repairs and converts JSONL datasets of LLM chat
// and agent conversations. Every check is a Rego policy or a YAML rule.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
)

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
