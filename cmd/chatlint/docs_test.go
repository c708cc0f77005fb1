package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/chatlint/chatlint/engine/config"
	"github.com/chatlint/chatlint/engine/report"
)

// TestCIDocIsComplete fails when a flag of check, rules, test or fmt, an
// output format or a config key is missing from docs/ci.md.
func TestCIDocIsComplete(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(repo, "docs/ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	root := newRootCmd(streams{})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		switch c.Name() {
		case "help", "completion":
			return
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Name != "help" && !strings.Contains(doc, "--"+f.Name+" ") && !strings.Contains(doc, "--"+f.Name+"`") {
				t.Errorf("docs/ci.md does not document %s --%s", c.CommandPath(), f.Name)
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
