package py

import (
	"math"
	"testing"
	"unicode"
)

func TestFloat(t *testing.T) {
	tests := []struct {
		f    float64
		want string
	}{
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{2, "2.0"},
		{2.5, "2.5"},
		{7.0 / 3, "2.3333333333333335"},
		{0.1, "0.1"},
		{1234567, "1234567.0"},
		{1e15, "1000000000000000.0"},
		{1e16, "1e+16"},
		{1e100, "1e+100"},
		{1.5e-5, "1.5e-05"},
		{0.0001, "0.0001"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
		{math.NaN(), "NaN"},
	}
	for _, tc := range tests {
		if got := Float(tc.f); got != tc.want {
			t.Errorf("Float(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

func TestPath(t *testing.T) {
	tests := map[string]string{
		"data/x.jsonl":     "data/x.jsonl",
		"./data//x.jsonl":  "data/x.jsonl",
		"data/./x.jsonl/":  "data/x.jsonl",
		"a//b/./c":         "a/b/c",
		"out/":             "out",
		"../x.jsonl":       "../x.jsonl",
		"../x/..":          "../x/..",
		"/tmp/x.jsonl":     "/tmp/x.jsonl",
		"/":                "/",
		"//host/x.jsonl":   "//host/x.jsonl",
		"///tmp/x.jsonl":   "/tmp/x.jsonl",
		".":                ".",
		"./":               ".",
		"":                 ".",
		"-":                "-",
		"dir with space/x": "dir with space/x",
	}
	for in, want := range tests {
		if got := Path(in); got != want {
			t.Errorf("Path(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestIsSpace checks every code point against Python's definition: category
// Z, or bidirectional class WS, B or S (\t..\r, U+001C..U+001F, U+0085).
func TestIsSpace(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := unicode.Is(unicode.Z, r) || r >= '\t' && r <= '\r' || r >= 0x1c && r <= 0x1f || r == 0x85
		if got := IsSpace(r); got != want {
			t.Errorf("IsSpace(%U) = %v, want %v", r, got, want)
		}
	}
}
