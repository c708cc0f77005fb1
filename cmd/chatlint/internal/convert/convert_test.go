package convert

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdtest"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
)

// dropIn is the drop-in's options when no flag is given: the reference
// converter's defaults (the run makes the two folders absolute).
func dropIn() *convertOptions {
	return &convertOptions{Logs: "./proxy_logs", Output: "./output", GroupBy: "date",
		ToolReport: true, Integrity: true, Anonymize: true, CleanupGoose: true, FailOn: "never", KTONegatives: "skip", MaxRecordValues: "50000"}
}

func TestNewCmdConvert(t *testing.T) {
	with := func(f func(o *convertOptions)) *convertOptions { o := dropIn(); f(o); return o }
	tests := []struct {
		name    string
		args    []string
		want    *convertOptions
		wantErr string
	}{
		{"drop-in defaults", nil, dropIn(), ""},
		{"drop-in flags", []string{"-l", "logs", "-o", "out", "--group-by", "scenario", "-j", "--no-anonymize", "--fail-on", "warning", "--cleanup", "p"},
			with(func(o *convertOptions) {
				o.Logs, o.Output, o.GroupBy, o.JSONToolCalls, o.Anonymize, o.FailOn, o.failOn, o.Cleanup =
					"logs", "out", "scenario", true, false, "warning", finding.Warning, []string{"p"}
			}), ""},
		{"negated pair: last wins", []string{"--no-tool-report", "--tool-report"}, dropIn(), ""},
		{"--max-record-values on the drop-in", []string{"--max-record-values", "10"}, nil, "usage: --max-record-values applies to convert --to only"},
		{"drop-in takes no inputs", []string{"a.jsonl"}, nil, `usage: unknown command "a.jsonl" for "chatlint convert" (the drop-in reads --logs DIR; give inputs with --to openai)`},
		{"--to flag on the drop-in", []string{"--split", "turns"}, nil, "usage: --split applies to convert --to only"},
		{"bad group-by", []string{"--group-by", "week"}, nil, `usage: --group-by: want date or scenario, not "week"`},
		{"single file by scenario", []string{"-s", "--group-by", "scenario"}, nil, "usage: --single-file cannot be combined with --group-by scenario"},
		{"info does not fail", []string{"--fail-on", "info"}, nil, `usage: --fail-on: want error, warning or never, not "info"`},

		{"to openai", []string{"--to", "openai", "-o", "train.jsonl", "--split", "turns", "--format", "chat", "--keep-reasoning", "a", "-"},
			with(func(o *convertOptions) {
				o.To, o.toMode, o.Output, o.Split, o.Format, o.format, o.KeepReasoning, o.Inputs =
					"openai", true, "train.jsonl", "turns", "chat", document.Chat, true, []string{"a", "-"}
				o.maxValues = 50000
			}), ""},
		{"to another format", []string{"--to", "sharegpt", "a"}, nil, `usage: --to: want openai, not "sharegpt"`},
		{"to, empty", []string{"--to", "", "a"}, nil, `usage: --to: want openai, not ""`},
		{"to without inputs", []string{"--to", "openai"}, nil, "usage: convert --to needs at least one file, directory or - (stdin)"},
		{"to with a drop-in flag", []string{"--to", "openai", "--keep-going", "a"}, nil, "usage: --keep-going is a flag of the proxy-log drop-in (convert -l DIR -o DIR), not of --to"},
		{"to, bad split", []string{"--to", "openai", "--split", "words", "a"}, nil, `usage: --split: want turns, not "words"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cmdtest.Parse(NewCmdConvert, tt.args...)
			if diff := cmp.Diff(tt.wantErr, cmdtest.ErrText(err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty(), cmp.AllowUnexported(convertOptions{}), cmpopts.IgnoreFields(convertOptions{}, "IO")); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}
