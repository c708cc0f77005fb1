package check

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
)

// TestRunCheckOwnStreams: the command runs on its own, on the streams its
// options hold, with no terminal and no root command: standard input read
// for -, findings (uncoloured: a buffer is no terminal) on Out, the exit
// status as a cmdutil.ExitCode.
func TestRunCheckOwnStreams(t *testing.T) {
	var out, errOut bytes.Buffer
	in := `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":""}]}` + "\n"
	cmd := NewCmdCheck(cmdutil.IOStreams{In: strings.NewReader(in), Out: &out, ErrOut: &errOut}, nil)
	cmd.SetArgs([]string{"--no-config", "--no-builtin", "--pack", "../../../../fixtures/packs/team", "--fail-on", "warning", "-"})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err := cmd.ExecuteContext(context.Background())
	var ec *cmdutil.ExitCode
	if !errors.As(err, &ec) || ec.Code != cmdutil.ExitFindings {
		t.Fatalf("exit: %v, want %d; stderr %s", err, cmdutil.ExitFindings, errOut.String())
	}
	got := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{
		"<stdin>:1: warning no-empty-assistant: assistant message 1 is empty",
		"0 errors, 1 warning, 0 infos (1 file, 1 record; chat: 1 file, 1 record)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	if errOut.Len() != 0 {
		t.Errorf("stderr: %q", errOut.String())
	}
}
