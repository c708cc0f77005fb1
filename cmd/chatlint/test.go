package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/engine/policy"
)

type testOptions struct {
	packOptions
}

func newTestCmd(s streams) *cobra.Command {
	o := &testOptions{packOptions: packOptions{Cleanup: true}}
	cmd := &cobra.Command{
		Use:   "test",
		Short: "Run the *_test.rego unit tests of the active packs",
		Long: `Test runs the Rego unit tests (test_ rules in *_test.rego files) of the
built-in packs and of every --pack folder, with chatlint's builtins available,
as opa test would. Exit status 1 when a test fails.`,
		Example: `  chatlint test --no-builtin --pack ./team-rules`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			packs, err := o.load()
			if err != nil {
				return err
			}
			results, err := policy.RunRegoTests(cmd.Context(), packs)
			var ce *policy.CompileError
			if errors.As(err, &ce) {
				return &exitCode{code: exitError, err: fmt.Errorf("policies do not compile:\n%s", ce.Error())}
			}
			if err != nil {
				return err
			}
			failed := 0
			for _, r := range results {
				switch {
				case r.Err != nil:
					failed++
					fmt.Fprintf(s.Out, "%s: ERROR %s: %v\n", r.Location, r.Name, r.Err)
				case r.Fail:
					failed++
					fmt.Fprintf(s.Out, "%s: FAIL %s\n", r.Location, r.Name)
				default:
					fmt.Fprintf(s.Out, "%s: PASS %s\n", r.Location, r.Name)
				}
			}
			fmt.Fprintf(s.Out, "%d passed, %d failed\n", len(results)-failed, failed)
			if failed > 0 {
				return &exitCode{code: exitFindings}
			}
			return nil
		},
	}
	addPackFlags(cmd, &o.packOptions)
	return cmd
}
