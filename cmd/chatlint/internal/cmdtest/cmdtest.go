// Package cmdtest tests a command's flags and validation through its runF
// seam (github/cli's pattern): the command parses its arguments and checks
// them as it would in a run, then hands its options to the test instead of
// running the engine.
package cmdtest

import (
	"errors"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
)

// Parse builds the command with newCmd, executes it on args and returns the
// options its runF received, or the error it returned before (nil options).
func Parse[T any](newCmd func(cmdutil.IOStreams, func(*T) error) *cobra.Command, args ...string) (*T, error) {
	var got *T
	s := cmdutil.IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard}
	cmd := newCmd(s, func(o *T) error { got = o; return nil })
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err := cmd.Execute()
	return got, err
}

// ErrText is the text of err, "" for nil, with "usage: " before a usage
// error (exit 2), so that a table states the exit status too.
func ErrText(err error) string {
	if err == nil {
		return ""
	}
	var ec *cmdutil.ExitCode
	if errors.As(err, &ec) && ec.Code == cmdutil.ExitError {
		return "usage: " + err.Error()
	}
	return err.Error()
}
