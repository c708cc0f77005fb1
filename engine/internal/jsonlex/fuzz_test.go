package jsonlex

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// seeds cover every token, escape and error the lexer knows.
var seeds = []string{
	`{"b":1,"a":[1.50,-0,2e3,1E-7,{"z":null,"y":true,"x":false}]}`,
	`"\u00e9\ud83d\ude00 \ud83d x \ude00 \ud83d\u0041 \u0000 \/\b\f\n\r\t\"\\"`,
	"\"\xff\xfe é \xe2\x82\"", "\"\xef\xbf\xbd\"", "\"abcdefgh\xffijklmnop\\n\xc3\"", `{"a":1,"a":2}`,
	" \t\r\n[ ] ", `{ }`, `[[[[[]]]]]`, `01`, `-`, `1.`, `.5`, `1e`, `1e+`, `+1`, `-a`, `"\x"`, `"\u12"`,
	`"\u12g4"`, "\"a\x01\"", `[1,]`, `{"a"}`, `{"a" 1}`, `{"a":1,}`, `{1:2}`, `[1 2]`, `tru`, `nulll`,
	`"unterminated`, `1 2`, `{"a":1} x`, ``, `   `, "\xff", "[\xff]", `"\ud800\\"`, `"\ud800\u00"`,
	strings.Repeat("[", 200) + strings.Repeat("]", 200),
}

// FuzzLexer checks the lexer, through the smallest builder over it, against
// encoding/json: both accept the same texts and read the same values. With
// ReplaceInvalid the lexer is exactly encoding/json (invalid UTF-8 in
// strings becomes U+FFFD); without it, it also refuses invalid UTF-8. An
// error's offset lies within the input or just past it.
func FuzzLexer(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantErr := reference(data)
		for _, replace := range []bool{true, false} {
			got, err := decodeAny(data, replace)
			refuse := wantErr != nil || (!replace && !utf8.Valid(data))
			switch {
			case err != nil && refuse:
				var se *SyntaxError
				if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(data) || se.Msg == "" {
					t.Fatalf("decode(%q, replace=%v): error %#v is not a *SyntaxError inside the input", data, replace, err)
				}
			case err != nil:
				t.Fatalf("decode(%q, replace=%v) = %v; encoding/json accepts it", data, replace, err)
			case refuse:
				t.Fatalf("decode(%q, replace=%v) accepts; encoding/json: %v, valid UTF-8: %v", data, replace, wantErr, utf8.Valid(data))
			case !reflect.DeepEqual(got, want):
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				t.Fatalf("decode(%q, replace=%v) = %s; encoding/json: %s", data, replace, g, w)
			}
		}
	})
}
