package repair

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdtest"
	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/engine/document"
)

func TestNewCmdRepair(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    *repairOptions
		wantErr string
	}{
		{"defaults", []string{"d.jsonl"},
			&repairOptions{Paths: []string{"d.jsonl"}, specs: []cmdutil.OutputSpec{{Format: "text"}}}, ""},
		{"every flag", []string{"--dry-run", "--force", "--ignore-writers", "--format", "pi-session", "-o", "text", "-o", "json=r.json", "a/", "b.jsonl"},
			&repairOptions{Paths: []string{"a/", "b.jsonl"}, DryRun: true, Force: true, IgnoreWriters: true, Format: "pi-session",
				format: document.PiSession, Outputs: []string{"text", "json=r.json"},
				specs: []cmdutil.OutputSpec{{Format: "text"}, {Format: "json", File: "r.json"}}}, ""},
		{"no paths", nil, nil, "usage: repair needs at least one file or directory"},
		{"stdin", []string{"-"}, nil, "usage: repair rewrites files in place: it cannot read standard input"},
		{"bad output", []string{"-o", "xml", "d"}, nil, `usage: --output: unknown output format "xml" (want text or json, optionally =FILE)`},
		{"same file twice", []string{"-o", "json=r", "-o", "text=r", "d"}, nil, "usage: --output: r is named by two outputs"},
		{"bad format", []string{"--format", "csv", "d"}, nil, `usage: --format: unknown input format "csv" (want ` + document.FormatNames() + ")"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cmdtest.Parse(NewCmdRepair, tt.args...)
			if diff := cmp.Diff(tt.wantErr, cmdtest.ErrText(err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(repairOptions{}), cmpopts.IgnoreFields(repairOptions{}, "IO")); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}
