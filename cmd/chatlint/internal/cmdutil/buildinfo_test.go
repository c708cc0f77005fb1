package cmdutil

import "testing"

func TestPseudoVersionCommit(t *testing.T) {
	tests := map[string]string{
		"v0.0.0-20260101120000-abcdef123456":         "abcdef123456",
		"v1.2.4-0.20260101120000-abcdef123456+dirty": "abcdef123456",
		"v1.2.3":      "",
		"(devel)":     "",
		"v1.2.3-rc-1": "",
	}
	for v, want := range tests {
		if got := pseudoVersionCommit(v); got != want {
			t.Errorf("%s: %q, want %q", v, got, want)
		}
	}
}
