package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
)

// TestFormatIsTheInputFormatEverywhere: every command that takes --format
// reads it as the input format (cmdutil.ParseFormat), so an unknown name is
// the same usage error in each; rules' --format (its output, before -o) is
// hidden.
func TestFormatIsTheInputFormatEverywhere(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "in.jsonl", cleanRecord+"\n")
	const want = `--format: unknown input format "csv" (want `
	for _, args := range [][]string{
		{"check", "--format", "csv", in},
		{"stats", "--format", "csv", in},
		{"fix", "--format", "csv", "--dry-run", in},
		{"repair", "--format", "csv", "--dry-run", in},
		{"convert", "--to", "openai", "--format", "csv", in},
	} {
		t.Run(args[0], func(t *testing.T) {
			_, errOut, code := chatlint(t, "", args...)
			if code != 2 || !strings.Contains(errOut, want) {
				t.Errorf("%v: exit %d, stderr %q; want 2 and %q", args, code, errOut, want)
			}
		})
	}
	root := newRootCmd(cmdutil.IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}})
	walkFlags(root, func(c *cobra.Command, f *pflag.Flag) {
		if f.Name != "format" {
			return
		}
		if hidden := c.Name() == "rules"; f.Hidden != hidden {
			t.Errorf("%s --format hidden %v, want %v", c.CommandPath(), f.Hidden, hidden)
		}
	})
}

// TestSharedFlagsAreDeclaredOnce: a flag cmdutil declares has one type,
// default and help in every command that has it.
func TestSharedFlagsAreDeclaredOnce(t *testing.T) {
	root := newRootCmd(cmdutil.IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}})
	type decl struct{ typ, def, usage, in string }
	seen := map[string]decl{}
	count := map[string]int{}
	walkFlags(root, func(c *cobra.Command, f *pflag.Flag) {
		switch f.Name {
		case "workers", "no-builtin", "config", "no-config", "disable":
		default:
			return
		}
		d := decl{f.Value.Type(), f.DefValue, f.Usage, c.CommandPath()}
		count[f.Name]++
		first, ok := seen[f.Name]
		if !ok {
			seen[f.Name] = d
			return
		}
		if d.typ != first.typ || d.def != first.def || d.usage != first.usage {
			t.Errorf("--%s in %s is %s %q %q; in %s %s %q %q", f.Name, d.in, d.typ, d.def, d.usage, first.in, first.typ, first.def, first.usage)
		}
	})
	// The commands that read records all take --workers (stats, check, fix,
	// convert, validate-input); the rule commands take the pack flags.
	if count["workers"] < 5 || count["disable"] < 4 {
		t.Errorf("flags found: %v", count)
	}
}

func walkFlags(c *cobra.Command, fn func(*cobra.Command, *pflag.Flag)) {
	c.LocalFlags().VisitAll(func(f *pflag.Flag) { fn(c, f) })
	for _, sub := range c.Commands() {
		walkFlags(sub, fn)
	}
}
