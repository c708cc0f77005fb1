package jsonv

import (
	"reflect"
	"strings"
	"testing"
)

// decodeSeeds cover what the direct decoder must read as encoding/json's
// token stream does: escapes, surrogate pairs and halves, invalid UTF-8,
// numbers by the grammar, duplicate keys, nesting, white space, and input it
// must refuse.
var decodeSeeds = []string{
	`{"b":1,"a":[1.50,-0,2e3,1E-7,{"z":null,"y":true,"x":false}]}`,
	`"\u00e9\ud83d\ude00 \ud83d x \ude00 \ud83d\u0041 \u0000 \/\b\f\n\r\t\"\\"`,
	"\"\xff\xfe é \xe2\x82\"", "\"\xef\xbf\xbd\"", `{"a":1,"a":2}`, " \t\r\n[ ] ", `{ }`,
	`[[[[[]]]]]`, `01`, `-`, `1.`, `.5`, `1e`, `+1`, `"\x"`, `"\u12"`, "\"a\x01\"", `[1,]`, `{"a"}`,
	`{"a":1,}`, `tru`, `nulll`, `"unterminated`, `1 2`, `{"a":1} x`, ``, `   `,
	strings.Repeat("[", 200) + strings.Repeat("]", 200),
}

// FuzzDecode checks the direct decoder against encoding/json's token
// stream: the same value, or both refuse (then Decode's error is the
// stream's own).
func FuzzDecode(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, wantErr := decodeTokens([]byte(s))
		got, err := Decode([]byte(s))
		// What encoding/json accepts, the direct decoder reads itself rather
		// than falling back, unless it nests past maxDepth (which takes more
		// than maxDepth bytes).
		if wantErr == nil && len(s) <= maxDepth {
			d := decoder{data: []byte(s)}
			_, ok := d.value(0)
			if d.space(); !ok || d.i != len(s) {
				t.Errorf("Decode(%q) fell back to encoding/json on valid input", s)
			}
		}
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("Decode(%q): error %v, encoding/json: %v", s, err, wantErr)
		}
		if err != nil {
			if err.Error() != wantErr.Error() {
				t.Errorf("Decode(%q): error %q, want encoding/json's %q", s, err, wantErr)
			}
			return
		}
		// reflect.DeepEqual: cmp.Diff takes exponential time on deeply
		// nested lists.
		if !reflect.DeepEqual(want, got) {
			t.Errorf("Decode(%q) = %s, encoding/json: %s", s, Marshal(got, Compact), Marshal(want, Compact))
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	rec := []byte(`{"session_id":"s1","timestamp":"2026-01-02T00:00:00Z","request":{"model":"m","messages":[` +
		strings.Repeat(`{"role":"user","content":"Weather in Paris? \u00e9 ok"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},{"role":"tool","tool_call_id":"c1","content":"{\"temp_c\": 18.5}"},`, 20) +
		`{"role":"assistant","content":"done"}]}}`)
	for _, c := range []struct {
		name string
		fn   func([]byte) (Value, error)
	}{{"direct", Decode}, {"tokens", decodeTokens}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(rec)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.fn(rec); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
