package builtins

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFlagPointers(t *testing.T) {
	keys := []string{"error", "timeout"}
	for _, tt := range []struct {
		text string
		want []string
	}{
		{`{"colors": {"Error": "red", "ok": "green"}}`, []string{"/colors/Error"}},
		{` [{"timeout": 3}, {"error": null}] `, []string{"/0/timeout"}},
		{`{"error": false, "timeout": 0, "missing": true}`, nil},
		{`error: disk full`, nil},
		{`{"error": "x"`, nil},
		{``, nil},
	} {
		got := FlagPointers(tt.text, keys)
		if len(got) == 0 {
			got = nil
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.text, diff)
		}
	}
}
