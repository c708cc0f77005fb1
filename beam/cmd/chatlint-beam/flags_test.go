package main

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// --rule-timeout and --max-line-size read their values as check does: a
// positive duration, a positive size with or without a unit; anything else
// is a usage error (the flag package then exits 2), never "the default" or
// "no limit".
func TestFlagValuesAsCheck(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		timeout time.Duration
		size    int
		err     string
	}{
		{nil, 5 * time.Second, 64 << 20, ""},
		{[]string{"--rule-timeout", "250ms"}, 250 * time.Millisecond, 64 << 20, ""},
		{[]string{"--record-timeout", "2s"}, 2 * time.Second, 64 << 20, ""},
		{[]string{"--max-line-size", "64MiB"}, 5 * time.Second, 64 << 20, ""},
		{[]string{"--max-line-size", "512KiB"}, 5 * time.Second, 512 << 10, ""},
		{[]string{"--max-line-size", "100"}, 5 * time.Second, 100, ""},
		{[]string{"--rule-timeout", "0"}, 0, 0, "want a positive duration such as 5s or 1h (there is no unlimited setting)"},
		{[]string{"--rule-timeout", "0s"}, 0, 0, "want a positive duration"},
		{[]string{"--rule-timeout", "-1s"}, 0, 0, "want a positive duration"},
		{[]string{"--record-timeout", "0s"}, 0, 0, "want a positive duration"},
		{[]string{"--rule-timeout", "soon"}, 0, 0, "want a duration such as 5s or 500ms"},
		{[]string{"--max-line-size", "0"}, 0, 0, `want a positive size such as 65536, 512KiB or 64MiB, not "0"`},
		{[]string{"--max-line-size", "-5"}, 0, 0, "want a positive size"},
		{[]string{"--max-line-size", "lots"}, 0, 0, "want a positive size"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			o := &options{}
			fs := flag.NewFlagSet("chatlint-beam", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			addFlags(fs, o)
			err := fs.Parse(tc.args)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff([]any{tc.timeout, tc.size}, []any{o.Timeout, o.MaxLineSize}); d != "" {
				t.Errorf("timeout, size (-want +got):\n%s", d)
			}
		})
	}
}
