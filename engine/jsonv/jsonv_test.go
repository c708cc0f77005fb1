package jsonv

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRoundTripKeepsOrderAndNumbers(t *testing.T) {
	cases := []struct{ in, compact, python string }{
		{`{"b":1,"a":[1.50,2e3,{"z":null,"y":true}]}`, `{"b":1,"a":[1.50,2e3,{"z":null,"y":true}]}`, `{"b": 1, "a": [1.50, 2e3, {"z": null, "y": true}]}`},
		{` {"s" : "é<&>\u2028\u0001\n"} `, `{"s":"é<&>\u2028\u0001\n"}`, "{\"s\": \"é<&>\u2028\\u0001\\n\"}"},
		{`[]`, `[]`, `[]`},
		{`{}`, `{}`, `{}`},
		{`"x"`, `"x"`, `"x"`},
	}
	for _, c := range cases {
		v, err := Decode([]byte(c.in))
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if diff := cmp.Diff(c.compact, string(Marshal(v, Compact))); diff != "" {
			t.Errorf("compact %s (-want +got):\n%s", c.in, diff)
		}
		if diff := cmp.Diff(c.python, string(Marshal(v, Python))); diff != "" {
			t.Errorf("python %s (-want +got):\n%s", c.in, diff)
		}
		// Compact output is what encoding/json reads back to the same data.
		var a, b any
		json.Unmarshal([]byte(c.in), &a)
		json.Unmarshal(Marshal(v, Compact), &b)
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("compact is not the same data (-want +got):\n%s", diff)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, in := range []string{``, `{`, `{"a":1} x`, `[1,]`, `{"a"}`, `nul`} {
		if _, err := Decode([]byte(in)); err == nil {
			t.Errorf("%q: want an error", in)
		}
	}
}

func TestObjectEdits(t *testing.T) {
	v, _ := Decode([]byte(`{"a":1,"b":2,"c":3}`))
	o := v.(*Object)
	o.Set("b", "x")
	o.Set("d", nil)
	o.Delete("a")
	if got := string(Marshal(o, Compact)); got != `{"b":"x","c":3,"d":null}` {
		t.Errorf("got %s", got)
	}
	c := Clone(o).(*Object)
	c.Set("c", false)
	if got, _ := o.Get("c"); got != json.Number("3") {
		t.Errorf("clone shares state: %v", got)
	}
}

// TestPythonASCII checks the escaping of Python's json.dumps default
// (ensure_ascii=True): everything outside printable ASCII as \uXXXX.
func TestPythonASCII(t *testing.T) {
	v := &Object{Members: []Member{{Key: "k\u00e9", Value: []Value{"caf\u00e9 \U0001F600", "\x7f\x01\n\u2028", json.Number("1.50")}}}}
	got := string(Marshal(v, PythonASCII))
	want := `{"k\u00e9": ["caf\u00e9 \ud83d\ude00", "\u007f\u0001\n\u2028", 1.50]}`
	if got != want {
		t.Errorf("Marshal(PythonASCII) =\n%s\nwant\n%s", got, want)
	}
}
