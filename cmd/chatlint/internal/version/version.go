// Package version is `chatlint version`.
package version

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
)

type versionOptions struct {
	IO cmdutil.IOStreams
}

// NewCmdVersion returns the `chatlint version` command writing to s. runF,
// when not nil, receives the options instead of the run (tests).
func NewCmdVersion(s cmdutil.IOStreams, runF func(*versionOptions) error) *cobra.Command {
	o := &versionOptions{IO: s}
	return &cobra.Command{
		Use:     "version",
		Short:   "Print chatlint's version, commit and OPA version",
		Example: "  chatlint version\n  chatlint --version",
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(o)
			}
			_, err := fmt.Fprint(o.IO.Out, cmdutil.ReadBuildInfo())
			return err
		},
	}
}
