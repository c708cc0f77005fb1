package jsonl

import "testing"

func TestObjectOrNot(t *testing.T) {
	cases := []struct {
		line   string
		object bool
		what   string // NonObject's answer; "" when it says no
	}{
		{`{"a":1}`, true, ""},
		{" \t{}", true, ""},
		{`{"a":`, false, ""},
		{`[1, 2]`, false, "an array"},
		{` "x"`, false, "a string"},
		{`true`, false, "a boolean"},
		{`null`, false, "null"},
		{`-4.5e3`, false, "a number"},
		{``, false, ""},
		{`not json`, false, ""},
	}
	for _, c := range cases {
		if got := IsObject([]byte(c.line)); got != c.object {
			t.Errorf("IsObject(%q) = %v, want %v", c.line, got, c.object)
		}
		what, ok := NonObject([]byte(c.line))
		if what != c.what || ok != (c.what != "") {
			t.Errorf("NonObject(%q) = %q, %v; want %q", c.line, what, ok, c.what)
		}
	}
}
