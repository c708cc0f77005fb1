package main

import (
	"io"

	"github.com/spf13/cobra"
)

// streams are the command's standard input and outputs, swapped in tests.
type streams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
}

func newRootCmd(s streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "chatlint",
		Short: "Validate, repair and convert JSONL datasets of LLM conversations",
		Long: `chatlint checks datasets of LLM chat and agent conversations stored as JSONL:
fine-tuning sets, agent session transcripts and request/response proxy logs.
Every check is a declarative rule (a Rego policy or a YAML rule) evaluated
over one normalized document per conversation.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &exitCode{code: exitError, err: err}
	})
	root.AddCommand(newCheckCmd(s), newFixCmd(s), newRulesCmd(s), newTestCmd(s))
	return root
}
