// Package version is `chatlint version`.
package version

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
)

// NewCmdVersion returns the `chatlint version` command writing to s.
func NewCmdVersion(s cmdutil.IOStreams) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print chatlint's version, commit and OPA version",
		Example: "  chatlint version\n  chatlint --version",
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprint(s.Out, cmdutil.ReadBuildInfo())
			return err
		},
	}
}
