package jsonlex

import (
	"testing"
)

// checkSkipString fails t unless SkipString ends where String ends and
// fails as it fails, in both UTF-8 modes, on the string at data[0].
func checkSkipString(t *testing.T, data []byte) {
	t.Helper()
	if len(data) == 0 || data[0] != '"' {
		return
	}
	for _, replace := range []bool{false, true} {
		a := Lexer{Data: data, ReplaceInvalid: replace}
		_, want := a.String(0)
		b := Lexer{Data: data, ReplaceInvalid: replace}
		got := b.SkipString(0)
		if got != want || a.Failed() != b.Failed() || (a.Failed() && a.Err().Error() != b.Err().Error()) {
			t.Fatalf("SkipString(%q, replace=%v) = %d, %v; String ends at %d, %v", data, replace, got, b.Err(), want, a.Err())
		}
	}
}

func TestSkipString(t *testing.T) {
	for _, s := range append(seeds, `"plain"`, `"a\nb\"c\\d\/e\u00e9"`, `"\ud83d\ude00"`, `"\ud83d\u12"`,
		`"\ud83d\uzzzz"`, `"\q"`, `"abc\`, `"\u00`, "\"\x1f\"", "\"\xc3\xa9\xff\"", `"long run of plain text then an escape \t here"`) {
		checkSkipString(t, []byte(s))
	}
}

func FuzzSkipString(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSkipString(t, append([]byte{'"'}, data...))
	})
}
