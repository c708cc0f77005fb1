package cmdutil

import (
	"errors"
	"testing"

	"github.com/chatlint/chatlint/engine/document"
)

func TestParseFormat(t *testing.T) {
	tests := []struct {
		name    string
		want    document.Format
		wantErr string
	}{
		{name: "", want: ""}, // detect per file
		{name: "chat", want: document.Chat},
		{name: "pi-session", want: document.PiSession},
		{name: "agent-session", want: document.PiSession}, // the former name
		{name: "csv", wantErr: `--format: unknown input format "csv" (want ` + document.FormatNames() + ")"},
	}
	for _, tt := range tests {
		got, err := ParseFormat(tt.name)
		if tt.wantErr != "" {
			var ec *ExitCode
			if err == nil || err.Error() != tt.wantErr || !errors.As(err, &ec) || ec.Code != ExitError {
				t.Errorf("ParseFormat(%q) = %v, want usage error %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseFormat(%q) = %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
}
