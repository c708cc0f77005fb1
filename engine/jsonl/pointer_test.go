package jsonl

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPointerTokens(t *testing.T) {
	tests := []struct {
		ptr  string
		want []string
		ok   bool
	}{
		{"", nil, true},
		{"/", []string{""}, true},
		{"/messages/3", []string{"messages", "3"}, true},
		{"/a~1b/c~0d", []string{"a/b", "c~d"}, true},
		{"/~01", []string{"~1"}, true}, // unescaped once: not "/"
		{"messages/3", nil, false},
	}
	for _, tc := range tests {
		got, ok := PointerTokens(tc.ptr)
		if ok != tc.ok || !cmp.Equal(got, tc.want) {
			t.Errorf("PointerTokens(%q) = %q, %v; want %q, %v", tc.ptr, got, ok, tc.want, tc.ok)
		}
	}
}

func TestValueOffset(t *testing.T) {
	data := []byte("{\n \"a\\u0062\": [1, {\"x\": \"]}\"}],\n \"messages\": [\n  {\"role\": \"user\"},\n  {\"role\": \"a/b\", \"c~d\": {\"t\": [true, null]}}\n ]\n}")
	tests := []struct {
		ptr  string
		want string // the text at the offset
		ok   bool
	}{
		{"", "{", true},
		{"/ab/1/x", `"]}"`, true},
		{"/messages/1", `{"role": "a/b"`, true},
		{"/messages/1/c~0d/t/1", "null", true},
		{"/messages/2", "", false},
		{"/messages/x", "", false},
		{"/nope", "", false},
		{"messages", "", false},
	}
	for _, tc := range tests {
		off, ok := ValueOffset(data, tc.ptr)
		if ok != tc.ok || (ok && !bytes.HasPrefix(data[off:], []byte(tc.want))) {
			t.Errorf("ValueOffset(%q) = %d, %v; want %q, %v", tc.ptr, off, ok, tc.want, tc.ok)
		}
	}
	for _, bad := range []string{`{"a":`, `{"a" 1}`, `[1 2]`, `{"a":"x`} {
		if _, ok := ValueOffset([]byte(bad), "/a/0"); ok {
			t.Errorf("ValueOffset(%s) found a value", bad)
		}
	}
}

func FuzzValueOffset(f *testing.F) {
	f.Add([]byte(`{"messages":[{"a":1},{"b":[2,3]}]}`), "/messages/1/b/1")
	f.Add([]byte(`[1,"\"",{}]`), "/2")
	f.Fuzz(func(t *testing.T, data []byte, ptr string) {
		if off, ok := ValueOffset(data, ptr); ok && (off < 0 || off >= len(data)) {
			t.Fatalf("offset %d outside %d bytes", off, len(data))
		}
	})
}
