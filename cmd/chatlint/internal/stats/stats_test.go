package stats

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdtest"
	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
)

func TestNewCmdStats(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    *statsOptions
		wantErr string
	}{
		{"defaults", []string{"d.jsonl"},
			&statsOptions{Paths: []string{"d.jsonl"}, specs: []cmdutil.OutputSpec{{Format: "text"}}, MaxRecordValues: "50000", maxValues: 50000}, ""},
		{"every flag", []string{"--model", "gpt-4.1-mini", "--epochs", "2", "--format", "chat", "--workers", "3", "--pack", "p", "--no-builtin",
			"-o", "json", "-o", "text=s.txt", "-o", "html=s.html", "--max-record-values", "1_000", "a", "b"},
			&statsOptions{Paths: []string{"a", "b"}, Model: "gpt-4.1-mini", Epochs: 2, Format: "chat", Workers: 3, MaxRecordValues: "1_000", maxValues: 1000,
				PackOptions: cmdutil.PackOptions{Packs: []string{"p"}, NoBuiltin: true},
				Outputs:     []string{"json", "text=s.txt", "html=s.html"},
				specs:       []cmdutil.OutputSpec{{Format: "json"}, {Format: "text", File: "s.txt"}, {Format: "html", File: "s.html"}}}, ""},
		{"no paths", nil, nil, "usage: stats needs at least one file, directory or - (stdin)"},
		{"html on stdout", []string{"-o", "html", "d"}, nil, "usage: --output: stats html goes to a file: -o html=FILE"},
		{"report format", []string{"-o", "sarif", "d"}, nil, `usage: --output: unknown output format "sarif" (want text or json, optionally =FILE, or html=FILE)`},
		{"two on stdout", []string{"-o", "text", "-o", "json", "d"}, nil, "usage: --output: both text and json would write to stdout; give one of them a file: -o json=FILE"},
		{"negative epochs", []string{"--epochs", "-1", "d"}, nil, "usage: --epochs: want a positive number"},
		{"no values", []string{"--max-record-values", "0", "d"}, nil, `usage: --max-record-values: want a positive count such as 1000000, not "0"`},
		{"workers", []string{"--workers", "x", "d"}, nil, `invalid argument "x" for "--workers" flag: want a whole number, not "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cmdtest.Parse(NewCmdStats, tt.args...)
			if diff := cmp.Diff(tt.wantErr, cmdtest.ErrText(err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(statsOptions{}),
				cmpopts.IgnoreFields(statsOptions{}, "IO"), cmpopts.IgnoreFields(cmdutil.PackOptions{}, "Notes"),
				cmpopts.IgnoreUnexported(cmdutil.PackOptions{})); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}
