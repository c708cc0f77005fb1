package validate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdtest"
	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
)

func TestNewCmdValidateInput(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    *validateInputOptions
		wantErr string
	}{
		{"defaults", []string{"--input", "c.jsonl"},
			&validateInputOptions{Input: "c.jsonl", MaxErrors: 100, MaxLine: "64MiB", maxLine: 64 << 20, MaxRecordValues: "50000", maxValues: 50000}, ""},
		{"every flag", []string{"--input", "-", "--report-json", "/tmp/r.json", "--max-errors", "0", "--write-messages-only", "m.jsonl", "--workers", "2", "--max-line-size", "1KiB"},
			&validateInputOptions{Input: "-", ReportJSON: "/tmp/r.json", MessagesOnly: "m.jsonl", Workers: 2, MaxLine: "1KiB", maxLine: 1024, MaxRecordValues: "50000", maxValues: 50000,
				reports: []cmdutil.OutputSpec{{Format: "json", File: "/tmp/r.json", Flag: "--report-json"}}}, ""},
		{"no input", nil, nil, "usage: validate-input needs --input FILE (or --input - for standard input)"},
		{"negative max errors", []string{"--input", "c", "--max-errors", "-1"}, nil, "usage: --max-errors must be >= 0, got -1"},
		{"bad line size", []string{"--input", "c", "--max-line-size", "big"}, nil, "usage: --max-line-size: "},
		// The contract validator writes its report to a file named "-".
		{"report named -", []string{"--input", "c", "--report-json", "-"},
			&validateInputOptions{Input: "c", ReportJSON: "-", MaxErrors: 100, MaxLine: "64MiB", maxLine: 64 << 20, MaxRecordValues: "50000", maxValues: 50000,
				reports: []cmdutil.OutputSpec{{Format: "json", File: "./-", Flag: "--report-json"}}}, ""},
		{"arguments", []string{"c.jsonl"}, nil, `unknown command "c.jsonl" for "validate-input"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cmdtest.Parse(NewCmdValidateInput, tt.args...)
			if gotErr := cmdtest.ErrText(err); tt.wantErr == "" && gotErr != "" || len(gotErr) < len(tt.wantErr) || gotErr[:len(tt.wantErr)] != tt.wantErr {
				t.Fatalf("error %q, want it to start with %q", gotErr, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(validateInputOptions{}), cmpopts.IgnoreFields(validateInputOptions{}, "IO")); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}
