package jsonlex

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNumberForm(t *testing.T) {
	for _, tc := range []struct {
		in   string
		end  int
		form Form
	}{
		{"0", 1, 0}, {"-12,", 3, 0}, {"1.5]", 3, Fraction}, {"1e5", 3, Exponent}, {"-1.5E+10 ", 8, Fraction | Exponent},
		{"01", 1, 0}, // the caller refuses the trailing 1
		{"1.", -1, 0}, {"-", -1, 0}, {"1e", -1, 0}, {"1e+", -1, 0}, {"-x", -1, 0}, {"1.x", -1, 0},
	} {
		l := Lexer{Data: []byte(tc.in)}
		end, form := l.Number(0)
		if end != tc.end || (end >= 0 && form != tc.form) {
			t.Errorf("Number(%q) = %d, %b; want %d, %b", tc.in, end, form, tc.end, tc.form)
		}
		if (end < 0) != (l.Failed()) {
			t.Errorf("Number(%q): end %d with error %v", tc.in, end, l.Err())
		}
	}
}

// TestInvalidUTF8 shows the two modes: the OPA builder refuses invalid UTF-8,
// the ordered builder replaces each bad byte in a string with U+FFFD, as
// encoding/json does.
func TestInvalidUTF8(t *testing.T) {
	for _, tc := range []struct {
		in, replaced string
		offset       int
	}{
		{"\"a\xffb\"", "a\uFFFDb", 2},
		{"\"\xe2\x82\"", "\uFFFD\uFFFD", 1},
		{"\"\\n\xc3(\"", "\n\uFFFD(", 3},
		{"\"0123456789\xfe\"", "0123456789\uFFFD", 11},
	} {
		var want string
		if err := json.Unmarshal([]byte(tc.in), &want); err != nil || want != tc.replaced {
			t.Fatalf("bad test case %q: encoding/json reads %q, %v", tc.in, want, err)
		}
		l := Lexer{Data: []byte(tc.in), ReplaceInvalid: true}
		s, j := l.String(0)
		if j != len(tc.in) || string(s) != tc.replaced {
			t.Errorf("replacing: String(%q) = %q, %d; want %q, %d", tc.in, s, j, tc.replaced, len(tc.in))
		}
		l = Lexer{Data: []byte(tc.in)}
		if _, j := l.String(0); j >= 0 || !l.Failed() || l.Err().Offset != tc.offset || l.Err().Msg != "invalid UTF-8" {
			t.Errorf("strict: String(%q) = %d, %v; want invalid UTF-8 at %d", tc.in, j, l.Err(), tc.offset)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		in  string
		err string
	}{
		{`{"a" 1}`, "invalid character '1' after object key (byte 6)"},
		{`{"a":1 "b"}`, "invalid character '\"' after object key:value pair (byte 8)"},
		{`[1 2]`, "invalid character '2' after array element (byte 4)"},
		{`{1:2}`, "invalid character '1' looking for beginning of object key string (byte 2)"},
		{`[tx]`, "invalid character 'x' in literal true (expecting 'r') (byte 3)"},
		{`"\q"`, "invalid character 'q' in string escape code (byte 3)"},
		{`"\u12"`, "invalid character '\"' in \\u hexadecimal character escape (byte 6)"},
		{`1 2`, "invalid character '2' after top-level value (byte 3)"},
		{`[1,`, "unexpected end of input (byte 4)"},
		{"[\xff]", "invalid UTF-8 (byte 2)"},
		{strings.Repeat("[", MaxDepth+1), "exceeded max depth (byte 10001)"},
	} {
		_, err := decodeAny([]byte(tc.in), false)
		got := "<nil>"
		if err != nil {
			got = err.Error()
		}
		if diff := cmp.Diff(tc.err, got); diff != "" {
			t.Errorf("decode(%.20q) error (-want +got):\n%s", tc.in, diff)
		}
	}
}
