package check

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdtest"
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

// TestNewCmdCheck: flags reach the options as given (the config file and
// the checks that depend on it come later, in runCheck).
func TestNewCmdCheck(t *testing.T) {
	type parsed struct {
		Paths, Outputs, Packs []string
		FailOn, Profile       string
		Baseline, Color       string
	}
	tests := []struct {
		name    string
		args    []string
		want    *parsed
		wantErr string
	}{
		{"defaults", []string{"d.jsonl"}, &parsed{Paths: []string{"d.jsonl"}, FailOn: "error", Profile: "default", Color: "auto"}, ""},
		{"repeated -o and packs", []string{"-o", "text", "-o", "sarif=r.sarif", "--pack", "a", "--pack", "b", "--fail-on", "warning",
			"--profile", "openai", "--baseline", "b.json", "--color", "never", "x", "-"},
			&parsed{Paths: []string{"x", "-"}, Outputs: []string{"text", "sarif=r.sarif"}, Packs: []string{"a", "b"}, FailOn: "warning",
				Profile: "openai", Baseline: "b.json", Color: "never"}, ""},
		{"no paths", nil, nil, "usage: check needs at least one file, directory or - (stdin)"},
		{"unknown flag", []string{"--fix", "d"}, nil, "unknown flag: --fix"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := cmdtest.Parse(NewCmdCheck, tt.args...)
			if diff := cmp.Diff(tt.wantErr, cmdtest.ErrText(err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			var got *parsed
			if o != nil {
				got = &parsed{Paths: o.Paths, Outputs: o.Outputs, Packs: o.Packs, FailOn: o.FailOn, Profile: o.Profile, Baseline: o.Baseline, Color: o.Color}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}
