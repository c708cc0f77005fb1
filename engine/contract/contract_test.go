package contract

import (
	"context"
	"testing"
	"unicode/utf8"

	"github.com/chatlint/chatlint/engine/astjson"
)

func TestTrimSpace(t *testing.T) {
	tests := map[string]string{
		"  {} \t":                      "{}",
		"\u00a0\u3000{}\u2028\u2029":   "{}",
		"\x1c\x1d\x1e\x1f\u0085{}\v\f": "{}",
		"\u200b{}":                     "\u200b{}", // zero width space is not whitespace
		"\ufeff{}":                     "\ufeff{}", // nor is the BOM
		"\u2000\u200a":                 "",
	}
	for in, want := range tests {
		if got := string(trimSpace([]byte(in))); got != want {
			t.Errorf("trimSpace(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPyJSON checks the messages against what CPython 3.13's json.loads
// raises (JSONDecodeError.msg).
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
		msg, nulled := pyJSON([]byte(tc.in))
		if msg != tc.msg || string(nulled) != tc.nulled {
			t.Errorf("pyJSON(%q) = %q, %q; want %q, %q", tc.in, msg, nulled, tc.msg, tc.nulled)
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
		msg, nulled := pyJSON(b)
		_, err := astjson.Decode(b)
		if err == nil && msg != "" {
			t.Fatalf("%q: the decoder accepts it, Python's replay says %q", b, msg)
		}
		if msg == "" && nulled == nil && err != nil {
			t.Fatalf("%q: Python's replay accepts it, the decoder says %v", b, err)
		}
		if nulled != nil {
			if _, err := astjson.Decode(nulled); err != nil {
				t.Fatalf("%q nulled to %q: %v", b, nulled, err)
			}
		}
	})
}

// FuzzCheckLine feeds arbitrary lines through the whole per-line decision,
// the contract pack included: it must never panic, and a line is exactly
// one of blank, valid (with its id) or an error with a known code.
func FuzzCheckLine(f *testing.F) {
	for _, s := range []string{
		`{"conversation_id": "c", "user_id": "u", "timestamp": "2026-02-10", "messages": [{"role": "user", "content": "hi"}]}`,
		`{"conversation_id": 1, "messages": [{"role": "user"}], "metadata": null}`,
		`[NaN]`, "\ufeff{}", "  \u00a0 ", "{\"a\":\xff}", `{"timestamp": "2026-02-30T25:00"}`,
	} {
		f.Add([]byte(s))
	}
	eng, err := NewEngine(context.Background())
	if err != nil {
		f.Fatal(err)
	}
	codes := map[string]bool{CodeInvalidJSON: true, CodeNonObject: true, CodeSchema: true}
	f.Fuzz(func(t *testing.T, line []byte) {
		ev := eng.newEvaluator("f.jsonl")
		v, err := ev.checkLine(context.Background(), 1, line, true)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		switch {
		case v.blank:
			if v.code != "" || len(trimSpace(line)) != 0 {
				t.Fatalf("%q: blank with code %q", line, v.code)
			}
		case v.code != "":
			if !codes[v.code] || v.msg == "" {
				t.Fatalf("%q: code %q, message %q", line, v.code, v.msg)
			}
		default:
			if len(v.snapshot) == 0 || v.snapshot[len(v.snapshot)-1] != '\n' {
				t.Fatalf("%q: valid without a snapshot line", line)
			}
		}
	})
}
