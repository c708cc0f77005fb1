package main

import (
	"github.com/spf13/cobra"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/check"
	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/cmd/chatlint/internal/convert"
	"github.com/chatlint/chatlint/cmd/chatlint/internal/fix"
	"github.com/chatlint/chatlint/cmd/chatlint/internal/fmtcmd"
	"github.com/chatlint/chatlint/cmd/chatlint/internal/repair"
	"github.com/chatlint/chatlint/cmd/chatlint/internal/rules"
	"github.com/chatlint/chatlint/cmd/chatlint/internal/stats"
	"github.com/chatlint/chatlint/cmd/chatlint/internal/test"
	"github.com/chatlint/chatlint/cmd/chatlint/internal/validate"
	"github.com/chatlint/chatlint/cmd/chatlint/internal/version"
)

func newRootCmd(s cmdutil.IOStreams) *cobra.Command {
	root := &cobra.Command{
		Use:   "chatlint",
		Short: "Validate, repair, fix and convert JSONL datasets of LLM conversations",
		Long: `chatlint checks, repairs, fixes and converts datasets of LLM chat and agent
conversations stored as JSONL: fine-tuning sets, agent session transcripts,
request/response proxy logs and exported conversation records. Every check
and every cleanup is a declarative rule (a Rego policy or a YAML rule)
evaluated over one normalized document per conversation.`,
		Example: `  chatlint check data/                                  # lint a dataset
  chatlint check -o sarif=chatlint.sarif -o junit=chatlint.xml data/
  chatlint repair sessions/                             # drop lines that are not JSON, with a backup
  chatlint fix --in-place data/                         # apply the cleanup packs, keep what is dropped
  chatlint convert -l proxy_logs -o dataset             # proxy logs to a fine-tuning dataset
  chatlint validate-input --input records.jsonl         # the conversation-record contract
  chatlint rules explain tool-result-missing
  chatlint test ./policies/team`,
		Version:       cmdutil.ReadBuildInfo().Version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.ErrOut)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &cmdutil.ExitCode{Code: cmdutil.ExitError, Err: err}
	})
	root.SetVersionTemplate(cmdutil.ReadBuildInfo().String())
	root.AddCommand(check.NewCmdCheck(s, nil), stats.NewCmdStats(s, nil), rules.NewCmdRules(s, nil), test.NewCmdTest(s, nil), fmtcmd.NewCmdFmt(s, nil), version.NewCmdVersion(s, nil),
		repair.NewCmdRepair(s, nil), fix.NewCmdFix(s, nil), convert.NewCmdConvert(s, nil), validate.NewCmdValidateInput(s, nil))
	addCompletion(root)
	return root
}
