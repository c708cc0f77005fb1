package fix

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdtest"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/fix"
	"github.com/chatlint/chatlint/engine/policy"
)

func TestNewCmdFix(t *testing.T) {
	base := func(f func(o *fixOptions)) *fixOptions {
		o := &fixOptions{Timeout: policy.DefaultRuleTimeout, MaxPasses: fix.DefaultMaxPasses, MaxLine: "64MiB", maxLine: 64 << 20, MaxRecordValues: "50000", maxValues: 50000}
		f(o)
		return o
	}
	tests := []struct {
		name    string
		args    []string
		want    *fixOptions
		wantErr string
	}{
		{"to a file", []string{"-o", "clean.jsonl", "d.jsonl"},
			base(func(o *fixOptions) { o.Output, o.Paths = "clean.jsonl", []string{"d.jsonl"} }), ""},
		{"in place, every flag", []string{"--in-place", "--ignore-writers", "--pack", "builtin:goose-cleanup", "--disable", "r", "--rule-timeout", "2s",
			"--format", "chat", "--tool-calls", "inline", "--workers", "2", "--max-passes", "3", "--max-line-size", "1KiB", "a", "b/"},
			base(func(o *fixOptions) {
				o.InPlace, o.IgnoreWriters, o.Packs, o.Disable, o.Timeout = true, true, []string{"builtin:goose-cleanup"}, []string{"r"}, 2*time.Second
				o.Format, o.format, o.ToolCalls, o.Workers, o.MaxPasses, o.MaxLine, o.maxLine = "chat", document.Chat, "inline", 2, 3, "1KiB", 1024
				o.Paths = []string{"a", "b/"}
			}), ""},
		{"no paths", []string{"--dry-run"}, nil, "usage: fix needs at least one file or directory"},
		{"no mode", []string{"d"}, nil, "usage: fix needs exactly one of -o OUT, --in-place or --dry-run"},
		{"two modes", []string{"--dry-run", "--in-place", "d"}, nil, "usage: fix needs exactly one of -o OUT, --in-place or --dry-run"},
		{"ignore writers without in-place", []string{"--dry-run", "--ignore-writers", "d"}, nil, "usage: --ignore-writers applies to --in-place only"},
		{"no pass", []string{"--dry-run", "--max-passes", "0", "d"}, nil, "usage: --max-passes: want at least 1"},
		{"bad tool calls", []string{"--dry-run", "--tool-calls", "xml", "d"}, nil, "usage: --tool-calls: "},
		{"bad line size", []string{"--dry-run", "--max-line-size", "big", "d"}, nil, "usage: --max-line-size: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cmdtest.Parse(NewCmdFix, tt.args...)
			if gotErr := cmdtest.ErrText(err); (tt.wantErr == "") != (gotErr == "") || len(gotErr) < len(tt.wantErr) || gotErr[:len(tt.wantErr)] != tt.wantErr {
				t.Fatalf("error %q, want it to start with %q", gotErr, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(fixOptions{}), cmpopts.IgnoreFields(fixOptions{}, "IO")); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}
