package py

import (
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/chatlint/chatlint/engine/astjson"
)

func TestPyJSON(t *testing.T) {
	tests := []struct{ in, msg, nulled string }{
		{`{"a": 1}`, "", ""},
		{`{"a" 1}`, "Expecting ':' delimiter", ""},
		{`{"a":1,}`, "Illegal trailing comma before end of object", ""},
		{`[1,]`, "Illegal trailing comma before end of array", ""},
		{`tru`, "Expecting value", ""},
		{`{"a":1} x`, "Extra data", ""},
		{`"abc`, "Unterminated string starting at", ""},
		{"\"a\x01\"", "Invalid control character at", ""},
		{`"\q"`, `Invalid \escape`, ""},
		{`"\u12"`, `Invalid \uXXXX escape`, ""},
		{`01`, "Extra data", ""},
		{`-`, "Expecting value", ""},
		{`1.`, "Extra data", ""},
		{`{`, "Expecting property name enclosed in double quotes", ""},
		{`{"a":`, "Expecting value", ""},
		{`[1 2]`, "Expecting ',' delimiter", ""},
		{`[`, "Expecting value", ""},
		{`"\`, "Unterminated string starting at", ""},
		{`{"a"`, "Expecting ':' delimiter", ""},
		{`{1:2}`, "Expecting property name enclosed in double quotes", ""},
		{`{"a":1,`, "Expecting property name enclosed in double quotes", ""},
		{`[1,`, "Expecting value", ""},
		{`1e`, "Extra data", ""},
		{"\ufeff{}", "Unexpected UTF-8 BOM (decode using utf-8-sig)", ""},
		{`NaN`, "", "null"},
		{`{"a": [NaN, -Infinity, "NaN", Infinity]}`, "", `{"a": [null, null, "NaN", null]}`},
		{`Nan`, "Expecting value", ""},
	}
	for _, tc := range tests {
		msg, nulled := Loads([]byte(tc.in))
		if msg != tc.msg || string(nulled) != tc.nulled {
			t.Errorf("Loads(%q) = %q, %q; want %q, %q", tc.in, msg, nulled, tc.msg, tc.nulled)
		}
	}
}

// FuzzPyJSON checks that the Python replay agrees with chatlint's decoder:
// a text one accepts the other accepts too (NaN and Infinity aside, which
// it turns into null for the decoder).
func FuzzPyJSON(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2.5e3, "x\u00e9"]}`, `[NaN]`, `{"a":1,}`, `"\ud800"`, `-0`, `1E+2`, `[[[]]]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !utf8.Valid(b) {
			return
		}
		msg, nulled := Loads(b)
		_, err := astjson.Decode(b)
		if err == nil && msg != "" {
			t.Fatalf("%q: the decoder accepts it, Python's replay says %q", b, msg)
		}
		// A number beyond OPA's range (1E70000) is JSON Python reads as
		// infinity and the decoder refuses as a range error, not a syntax
		// error: the one divergence allowed.
		var re *astjson.RangeError
		if msg == "" && nulled == nil && err != nil && !errors.As(err, &re) {
			t.Fatalf("%q: Python's replay accepts it, the decoder says %v", b, err)
		}
		if nulled != nil {
			if _, err := astjson.Decode(nulled); err != nil && !errors.As(err, &re) {
				t.Fatalf("%q nulled to %q: %v", b, nulled, err)
			}
		}
	})
}
