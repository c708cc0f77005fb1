package main

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
)

// TestMain lets a test run chatlint as a process of its own, with the GC
// tuning of main: the test binary re-executes itself with CHATLINT_TEST_MAIN
// set and the command line after "--".
func TestMain(m *testing.M) {
	if os.Getenv("CHATLINT_TEST_MAIN") == "1" {
		args := os.Args[1:]
		for i, a := range args {
			if a == "--" {
				args = args[i+1:]
				break
			}
		}
		tuneGC()
		code := run(context.Background(), args, cmdutil.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr})
		if p := os.Getenv("CHATLINT_TEST_HWM"); p != "" {
			// The peak RSS of this process since exec; getrusage would
			// count the test binary's own from before the fork.
			if status, err := os.ReadFile("/proc/self/status"); err == nil {
				os.WriteFile(p, status, 0o644)
			}
		}
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// chatlintProcess returns the command running chatlint with args in a
// process of its own.
func chatlintProcess(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "CHATLINT_TEST_MAIN=1")
	return cmd
}
