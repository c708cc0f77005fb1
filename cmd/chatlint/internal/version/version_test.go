package version

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdtest"
)

func TestNewCmdVersion(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantRun bool
		wantErr string
	}{
		{"no arguments", nil, true, ""},
		{"an argument", []string{"x"}, false, `unknown command "x" for "version"`},
		{"a flag", []string{"--short"}, false, "unknown flag: --short"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cmdtest.Parse(NewCmdVersion, tt.args...)
			if diff := cmp.Diff(tt.wantErr, cmdtest.ErrText(err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if (got != nil) != tt.wantRun {
				t.Errorf("ran: %v, want %v", got != nil, tt.wantRun)
			}
		})
	}
}
