package jsonl

import (
	"strings"
	"testing"
)

func TestSniff(t *testing.T) {
	long := `{"messages":[{"role":"user","content":"` + strings.Repeat("x", SniffSize) + `"}]}`
	tests := []struct {
		name, file, head string
		eof              bool
		want             Kind
	}{
		{"JSON Lines", "a.jsonl", "{\"a\":1}\n{\"b\":2}\n", true, Lines},
		{"empty", "a.jsonl", "", true, Lines},
		{"a broken first line", "a.jsonl", "garbage\n{\"a\":1}\n{\"b\":2}\n", true, Lines},
		{"a line of NUL bytes a crash left", "a.jsonl", "\x00\x00\n{\"a\":1}\n", true, Lines},
		{"a first record longer than the head", "a.jsonl", long[:SniffSize], false, Lines},
		{"a broken line before a long record", "a.jsonl", "oops\n" + long[:SniffSize-5], false, Lines},
		{"a broken first JSON line", "a.jsonl", "{\"a\":\n{\"b\":2}\n", true, MaybeDocument},
		{"pretty-printed", "a.traj", "{\n  \"history\": []\n}\n", true, MaybeDocument},
		{"Parquet", "a.jsonl", "PAR1\x15\x04", false, Binary},
		{"gzip", "a.jsonl.gz", "\x1f\x8b\x08\x00", false, Binary},
		{"NUL bytes", "a.bin", "ab\x00cd\nef\x00\n", true, Binary},
		{"not UTF-8", "a.txt", "ab\xff\xfe\ncd\n", true, Binary},
		{"Markdown", "chat.md", "# Chat\n\nhello\n", true, Text},
		{"Markdown by its marks", "chat.jsonl", "**User:** hi\n**Assistant:** hello\n", true, Text},
		{"plain text", "notes.txt", "hello\nworld\n", true, Text},
		{"Markdown with one JSON line", "chat.jsonl", "# Log\n\nsome text\n{\"a\":1}\nmore text\n", true, Text},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Sniff(tc.file, []byte(tc.head), tc.eof)
			if got.Kind != tc.want {
				t.Errorf("Sniff = %+v, want kind %d", got, tc.want)
			}
			if (got.Kind == Binary || got.Kind == Text) && got.What == "" {
				t.Error("no words for what the file is")
			}
		})
	}
}

func TestDocument(t *testing.T) {
	tests := []struct {
		data, want string
		ok         bool
	}{
		{"{\n  \"b\": 1,\n  \"a\": [2]\n}\n", "one pretty-printed JSON object (keys: a, b)", true},
		{"[\n  {\"a\": 1},\n  {\"a\": 2}\n]\n", "one pretty-printed JSON array of 2 elements", true},
		{"{\"a\": 1}\n{\"a\": 2}\n", "", false}, // JSON Lines
		{"{\"a\":\n{\"b\": 2}\n", "", false},    // JSON Lines with a broken line
		{"{\"a\": 1}", "", false},               // one line: JSON Lines of one record
	}
	for _, tc := range tests {
		got, ok := Document([]byte(tc.data))
		if got != tc.want || ok != tc.ok {
			t.Errorf("Document(%q) = %q, %v; want %q, %v", tc.data, got, ok, tc.want, tc.ok)
		}
	}
}
