package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdtest"
	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
)

var ignoreStreams = []cmp.Option{
	cmpopts.IgnoreFields(cmdutil.PackOptions{}, "Notes"), cmpopts.IgnoreUnexported(cmdutil.PackOptions{}),
}

func TestNewCmdRules(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    *rulesOptions
		wantErr string
	}{
		{"defaults", nil, &rulesOptions{specs: []cmdutil.OutputSpec{{Format: "text"}}}, ""},
		{"markdown to a file, json out", []string{"-o", "markdown=docs/rules.md", "-o", "json", "--profile", "openai", "--pack", "./team"},
			&rulesOptions{Outputs: []string{"markdown=docs/rules.md", "json"}, Profile: "openai",
				PackOptions: cmdutil.PackOptions{Packs: []string{"./team"}},
				specs:       []cmdutil.OutputSpec{{Format: "markdown", File: "docs/rules.md"}, {Format: "json"}}}, ""},
		// --format named the output before -o; it still does.
		{"deprecated --format", []string{"--format", "json"},
			&rulesOptions{Outputs: []string{"json"}, specs: []cmdutil.OutputSpec{{Format: "json"}}}, ""},
		{"bad output", []string{"-o", "yaml"}, nil, `usage: --output: unknown output format "yaml" (want text, json or markdown, optionally =FILE)`},
		{"report format", []string{"-o", "sarif=r.sarif"}, nil, `usage: --output: unknown output format "sarif" (want text, json or markdown, optionally =FILE)`},
		{"arguments", []string{"tool-result-missing"}, nil, `unknown command "tool-result-missing" for "rules"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cmdtest.Parse(NewCmdRules, tt.args...)
			if diff := cmp.Diff(tt.wantErr, cmdtest.ErrText(err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			opts := append([]cmp.Option{cmp.AllowUnexported(rulesOptions{}), cmpopts.IgnoreFields(rulesOptions{}, "IO")}, ignoreStreams...)
			if diff := cmp.Diff(tt.want, got, opts...); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewExplainCmd(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    *explainOptions
		wantErr string
	}{
		{"one rule", []string{"--pack", "./team", "no-empty-assistant"},
			&explainOptions{Rule: "no-empty-assistant", PackOptions: cmdutil.PackOptions{Packs: []string{"./team"}}}, ""},
		{"no rule", nil, nil, "accepts 1 arg(s), received 0"},
		{"two rules", []string{"a", "b"}, nil, "accepts 1 arg(s), received 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cmdtest.Parse(newExplainCmd, tt.args...)
			if diff := cmp.Diff(tt.wantErr, cmdtest.ErrText(err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			opts := append([]cmp.Option{cmpopts.IgnoreFields(explainOptions{}, "IO")}, ignoreStreams...)
			if diff := cmp.Diff(tt.want, got, opts...); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}
