package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/engine/config"
	"github.com/chatlint/chatlint/engine/report"
)

// TestCIDocIsComplete fails when a flag of a command is missing from its
// page (docs/NAME.md for a command that has one, docs/ci.md for the others),
// or an output format or a config key is missing from docs/ci.md.
func TestCIDocIsComplete(t *testing.T) {
	read := func(name string) (string, bool) {
		raw, err := os.ReadFile(filepath.Join(repo, "docs", name))
		return string(raw), err == nil
	}
	doc, ok := read("ci.md")
	if !ok {
		t.Fatal("docs/ci.md is missing")
	}
	root := newRootCmd(cmdutil.IOStreams{})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		switch c.Name() {
		case "help", "completion":
			return
		}
		page, text := "docs/ci.md", doc
		top := c
		for top.HasParent() && top.Parent().HasParent() {
			top = top.Parent()
		}
		// A command's own page has the command in its title.
		if own, ok := read(top.Name() + ".md"); ok && top != root && strings.Contains(strings.SplitN(own, "\n", 2)[0], "chatlint "+top.Name()) {
			page, text = "docs/"+top.Name()+".md", own
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Name != "help" && !strings.Contains(text, "--"+f.Name+" ") && !strings.Contains(text, "--"+f.Name+"`") {
				t.Errorf("%s does not document %s --%s", page, c.CommandPath(), f.Name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for _, f := range report.Formats() {
		if !strings.Contains(doc, "| `"+f+"`") {
			t.Errorf("docs/ci.md does not document the %s format", f)
		}
	}
	for _, k := range config.Keys {
		if !strings.Contains(doc, "| `"+k+"` |") {
			t.Errorf("docs/ci.md does not document the config key %s", k)
		}
	}
}
