// Package fmtcmd is `chatlint fmt`, which formats Rego files (named so that it
// does not shadow the standard library's fmt).
package fmtcmd

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/format"
	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/engine/atomicfile"
	"github.com/chatlint/chatlint/engine/runner"
)

type fmtOptions struct {
	IO cmdutil.IOStreams

	Check bool
	Paths []string
}

// NewCmdFmt returns the `chatlint fmt` command writing to s.
// runF, when not nil, receives the parsed options instead of the run (tests).
func NewCmdFmt(s cmdutil.IOStreams, runF func(*fmtOptions) error) *cobra.Command {
	o := &fmtOptions{IO: s}
	cmd := &cobra.Command{
		Use:   "fmt [--check] [PACK|FILE...]",
		Short: "Format the Rego of pack folders with OPA's formatter",
		Long: `Fmt rewrites every *.rego file of the given pack folders (or files) in the
canonical layout of OPA's formatter (Rego v1), as opa fmt would. Files are
replaced atomically and keep their mode. With no argument it formats the
folder packs of .chatlint.yaml.

With --check nothing is written: the files that would change are listed and
the exit status is 1 when there is one, for CI.`,
		Example: `  chatlint fmt ./policies/team
  chatlint fmt --check ./policies/team     # in CI: exit 1 when a file is not formatted`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Paths = args
			if runF != nil {
				return runF(o)
			}
			return runFmt(o)
		},
	}
	cmd.Flags().BoolVar(&o.Check, "check", false, "list files that are not formatted, change nothing, exit 1 if any")
	return cmd
}

func runFmt(o *fmtOptions) error {
	paths := o.Paths
	if len(paths) == 0 {
		po := cmdutil.PackOptions{Notes: o.IO.ErrOut}
		cfg, err := po.Config()
		if err != nil {
			return err
		}
		if cfg != nil {
			for _, p := range cfg.Packs {
				if r := cfg.Resolve(p); cmdutil.IsDir(r) {
					paths = append(paths, r)
				}
			}
		}
		if len(paths) == 0 {
			return cmdutil.UsageError("fmt needs a pack folder or a .rego file (or a .chatlint.yaml naming folder packs)")
		}
	}
	var files []string
	for _, p := range paths {
		if strings.HasPrefix(p, "builtin:") {
			return cmdutil.UsageError("%s is built into chatlint and cannot be formatted; format its source folder", p)
		}
		err := filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".rego") {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			return &cmdutil.ExitCode{Code: cmdutil.ExitError, Err: err}
		}
	}
	changed, failed := 0, false
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(o.IO.ErrOut, "chatlint:", runner.Describe(err))
			failed = true
			continue
		}
		out, err := format.SourceWithOpts(f, src, format.Opts{RegoVersion: ast.RegoV1})
		if err != nil {
			fmt.Fprintf(o.IO.ErrOut, "chatlint: %v\n", err)
			failed = true
			continue
		}
		if bytes.Equal(src, out) {
			continue
		}
		changed++
		if o.Check {
			fmt.Fprintf(o.IO.Out, "%s: not formatted\n", f)
			continue
		}
		if err := atomicfile.WriteFile(f, out, 0o644); err != nil {
			fmt.Fprintln(o.IO.ErrOut, "chatlint:", err)
			failed = true
			continue
		}
		fmt.Fprintf(o.IO.Out, "%s: formatted\n", f)
	}
	switch {
	case failed:
		return &cmdutil.ExitCode{Code: cmdutil.ExitError}
	case o.Check && changed > 0:
		return &cmdutil.ExitCode{Code: cmdutil.ExitFindings}
	}
	return nil
}
