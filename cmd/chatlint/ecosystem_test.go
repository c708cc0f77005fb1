package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
)

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, errOut, code := chatlint(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errOut)
		}
		for _, want := range []string{"chatlint ", "\ncommit: ", "\nopa: v1.", "\ngo: go1."} {
			if !strings.Contains(out, want) {
				t.Errorf("%v lacks %q:\n%s", args, want, out)
			}
		}
	}
}

// TestEveryCommandHasExamples walks the command tree: every command shows
// examples in --help.
func TestEveryCommandHasExamples(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Name() != "help" && strings.TrimSpace(c.Example) == "" {
			t.Errorf("%q has no examples in --help", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(cmdutil.IOStreams{}))
}

func TestCompletion(t *testing.T) {
	out, _, code := chatlint(t, "", "completion", "bash")
	if code != 0 || !strings.Contains(out, "bash completion") {
		t.Errorf("exit %d\n%.200s", code, out)
	}
}

func TestColor(t *testing.T) {
	f := writeFile(t, t.TempDir(), "d.jsonl", emptyTurn+"\n")
	args := []string{"check", "--no-config", "--no-builtin", "--pack", filepath.Join(repo, "fixtures/packs/team"), f}
	// Not a terminal: no colour by default.
	if out, _, _ := chatlint(t, "", args...); strings.Contains(out, "\x1b[") {
		t.Errorf("colour on a pipe:\n%q", out)
	}
	if out, _, _ := chatlint(t, "", append(args, "--color", "always")...); !strings.Contains(out, "\x1b[33mwarning\x1b[0m no-empty-assistant") {
		t.Errorf("--color always:\n%q", out)
	}
	// auto against a character device (what isTerminal looks for): only
	// NO_COLOR or TERM=dumb turn colour off. Against os.Stdout, a pipe under
	// go test, auto never colours and this could not fail.
	if tty, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil && cmdutil.IsTerminal(tty) {
		defer tty.Close()
		for _, tc := range []struct {
			noColor, term string
			want          bool
		}{{"", "xterm", true}, {"1", "xterm", false}, {"", "dumb", false}} {
			t.Setenv("NO_COLOR", tc.noColor)
			t.Setenv("TERM", tc.term)
			if c, _ := cmdutil.UseColor("auto", tty); c != tc.want {
				t.Errorf("NO_COLOR=%q TERM=%q: auto colours %v, want %v", tc.noColor, tc.term, c, tc.want)
			}
		}
	}
	if _, errOut, code := chatlint(t, "", append(args, "--color", "sometimes")...); code != 2 || !strings.Contains(errOut, "--color") {
		t.Errorf("bad --color: exit %d %q", code, errOut)
	}
}

// TestPreCommitHook keeps .pre-commit-hooks.yaml pointing at the command.
func TestPreCommitHook(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(repo, ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- id: chatlint", "entry: chatlint check", "language: golang"} {
		if !strings.Contains(string(raw), want) {
			t.Errorf(".pre-commit-hooks.yaml lacks %q", want)
		}
	}
}
