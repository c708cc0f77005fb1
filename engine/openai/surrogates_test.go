package openai

import "testing"

func TestLoneSurrogates(t *testing.T) {
	for _, tt := range []struct {
		in    string
		n     int
		first string
	}{
		{`{"a": "plain é"}`, 0, ""},
		{`{"a": "\ud83d\ude00"}`, 0, ""},                      // a pair
		{`{"a": "x\ud83d y"}`, 1, `\ud83d`},                   // a high half alone
		{`{"a": "x\ude00"}`, 1, `\ude00`},                     // a low half alone
		{`{"a": "\\ud800"}`, 0, ""},                           // an escaped backslash, then text
		{`{"a": "\ud800\ud800\udc00"}`, 1, `\ud800`},          // the second high pairs
		{`{"a": "\udc00\ud83d", "b": "\u00e9"}`, 2, `\udc00`}, // two alone; é is no surrogate
	} {
		if n, first := LoneSurrogates([]byte(tt.in)); n != tt.n || first != tt.first {
			t.Errorf("%s: %d, %q; want %d, %q", tt.in, n, first, tt.n, tt.first)
		}
	}
}
