package test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdtest"
	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
)

func TestNewCmdTest(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    *testOptions
		wantErr string
	}{
		// The cleanup packs load too: their fixtures are tested like any pack's.
		{"every active pack", nil, &testOptions{PackOptions: cmdutil.PackOptions{Cleanup: true}}, ""},
		{"named packs", []string{"--no-builtin", "--disable", "r", "./policies/team", "builtin:integrity"},
			&testOptions{Targets: []string{"./policies/team", "builtin:integrity"},
				PackOptions: cmdutil.PackOptions{Cleanup: true, NoBuiltin: true, Disable: []string{"r"}}}, ""},
		{"timeout", []string{"--rule-timeout", "3s"},
			&testOptions{PackOptions: cmdutil.PackOptions{Cleanup: true, Timeout: 3 * time.Second}}, ""},
		{"unknown flag", []string{"--run", "x"}, nil, "unknown flag: --run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cmdtest.Parse(NewCmdTest, tt.args...)
			if diff := cmp.Diff(tt.wantErr, cmdtest.ErrText(err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(testOptions{}, "IO"),
				cmpopts.IgnoreFields(cmdutil.PackOptions{}, "Notes"), cmpopts.IgnoreUnexported(cmdutil.PackOptions{})); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}
