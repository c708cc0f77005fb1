package contract

import (
	"context"
	"testing"
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
		ev := eng.newEvaluator("f.jsonl", 0)
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
