package fmtcmd

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdtest"
)

func TestNewCmdFmt(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    *fmtOptions
		wantErr string
	}{
		// No path: the run takes the folder packs of .chatlint.yaml.
		{"no path", nil, &fmtOptions{}, ""},
		{"check", []string{"--check", "./policies/team", "a.rego"}, &fmtOptions{Check: true, Paths: []string{"./policies/team", "a.rego"}}, ""},
		{"unknown flag", []string{"--write"}, nil, "unknown flag: --write"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cmdtest.Parse(NewCmdFmt, tt.args...)
			if diff := cmp.Diff(tt.wantErr, cmdtest.ErrText(err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(fmtOptions{}, "IO")); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}
