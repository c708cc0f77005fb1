package repair

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// scanned is what a scan reports, in a form go-cmp can diff.
type scanned struct {
	Kept    []string
	Dropped []int // line numbers
	Stats   Stats
}

func scanString(t *testing.T, in string) scanned {
	t.Helper()
	var got scanned
	st, err := Scan(strings.NewReader(in), func(r Record) error {
		if r.Kept {
			got.Kept = append(got.Kept, string(r.Data))
		} else {
			got.Dropped = append(got.Dropped, r.Line)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Scan: %v", err)
	}
	got.Stats = st
	return got
}

func TestScan(t *testing.T) {
	long := `{"text":"` + strings.Repeat("x", 200<<10) + `"}`
	tests := []struct {
		name string
		in   string
		want scanned
		out  string // what WriteKept writes
	}{
		{name: "empty", in: "", want: scanned{}, out: ""},
		{name: "blank lines only", in: "\n \t\r\n\r\n", want: scanned{}, out: ""},
		{name: "clean LF", in: "{\"a\":1}\n{\"b\":2}\n",
			want: scanned{Kept: []string{`{"a":1}`, `{"b":2}`}, Stats: Stats{Records: 2}}, out: "{\"a\":1}\n{\"b\":2}\n"},
		{name: "CRLF and blank lines are not counted", in: "{\"a\":1}\r\n\r\n  \r\n{\"b\":2}\r\n",
			want: scanned{Kept: []string{`{"a":1}`, `{"b":2}`}, Stats: Stats{Records: 2}}, out: "{\"a\":1}\n{\"b\":2}\n"},
		{name: "truncated last line without newline", in: "{\"a\":1}\n{\"b\":",
			want: scanned{Kept: []string{`{"a":1}`}, Dropped: []int{2}, Stats: Stats{Records: 1, Dropped: 1}}, out: "{\"a\":1}\n"},
		{name: "corrupt lines anywhere, counted per line", in: "nope\n{\"a\":1}\n{]\n\n[1,\n",
			want: scanned{Kept: []string{`{"a":1}`}, Dropped: []int{1, 3, 5}, Stats: Stats{Records: 1, Dropped: 3}}, out: "{\"a\":1}\n"},
		{name: "kept bytes as they were: spaces, escapes, key order, numbers", in: "  {\"b\" : 1.50, \"a\":\"\\u00e9\"}  \nx\n",
			want: scanned{Kept: []string{`  {"b" : 1.50, "a":"\u00e9"}  `}, Dropped: []int{2}, Stats: Stats{Records: 1, Dropped: 1}},
			out:  "  {\"b\" : 1.50, \"a\":\"\\u00e9\"}  \n"},
		{name: "a JSON value that is not an object is kept: it parses", in: "42\n\"s\"\n{\"a\":1}\nnull\n[1, 2]\n  [{}]  \n",
			want: scanned{Kept: []string{`42`, `"s"`, `{"a":1}`, `null`, `[1, 2]`, `  [{}]  `}, Stats: Stats{Records: 6}}, out: "42\n\"s\"\n{\"a\":1}\nnull\n[1, 2]\n  [{}]  \n"},
		{name: "glued pieces split only when each is an object", in: "{\"a\":1}\r[1]\n{\"c\":3}\n",
			want: scanned{Kept: []string{`{"c":3}`}, Dropped: []int{1}, Stats: Stats{Records: 1, Dropped: 1}}, out: "{\"c\":3}\n"},
		{name: "invalid UTF-8 inside a string is replaced, the record kept", in: "{\"a\":\"x\xff\xfey\"}\n{\"b\":\"\xc3\xa9\"}\n",
			want: scanned{Kept: []string{"{\"a\":\"x\uFFFDy\"}", "{\"b\":\"\xc3\xa9\"}"}, Stats: Stats{Records: 2, Mended: 1}},
			out:  "{\"a\":\"x\uFFFDy\"}\n{\"b\":\"\xc3\xa9\"}\n"},
		{name: "byte-order mark kept in front", in: "\xEF\xBB\xBF{\"a\":1}\n{\n",
			want: scanned{Kept: []string{`{"a":1}`}, Dropped: []int{2}, Stats: Stats{Records: 1, Dropped: 1}}, out: "\xEF\xBB\xBF{\"a\":1}\n"},
		{name: "two records glued by a lone CR are split", in: "{\"a\":1}\r{\"b\":2}\n{\"c\":3}\n",
			want: scanned{Kept: []string{`{"a":1}`, `{"b":2}`, `{"c":3}`}, Stats: Stats{Records: 3, Split: 1}},
			out:  "{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n"},
		{name: "a whole file with old-Mac line ends", in: "{\"a\":1}\r{\"b\":2}\r\r{\"c\":3}\r",
			want: scanned{Kept: []string{`{"a":1}`, `{"b":2}`, `{"c":3}`}, Stats: Stats{Records: 3, Split: 1}},
			out:  "{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n"},
		{name: "a lone CR that is whitespace inside one value keeps the line whole", in: "{\"a\":\r1}\n",
			want: scanned{Kept: []string{"{\"a\":\r1}"}, Stats: Stats{Records: 1}}, out: "{\"a\":\r1}\n"},
		{name: "a broken piece drops the whole glued line", in: "{\"a\":1}\r{\"b\":\n{\"c\":3}\n",
			want: scanned{Kept: []string{`{"c":3}`}, Dropped: []int{1}, Stats: Stats{Records: 1, Dropped: 1}}, out: "{\"c\":3}\n"},
		{name: "a raw CR inside a string is not a record boundary", in: "{\"a\":\"x\r1\r\"}\n",
			want: scanned{Dropped: []int{1}, Stats: Stats{Dropped: 1}}, out: ""},
		{name: "CR CR LF from a double conversion", in: "{\"a\":1}\r\r\n",
			want: scanned{Kept: []string{`{"a":1}`}, Stats: Stats{Records: 1}}, out: "{\"a\":1}\n"},
		{name: "a line longer than the read buffer", in: long + "\n{\n",
			want: scanned{Kept: []string{long}, Dropped: []int{2}, Stats: Stats{Records: 1, Dropped: 1}}, out: long + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, scanString(t, tt.in)); diff != "" {
				t.Errorf("scan (-want +got):\n%s", diff)
			}
			var out bytes.Buffer
			st, err := WriteKept(&out, iotest.HalfReader(strings.NewReader(tt.in)))
			if err != nil {
				t.Fatal(err)
			}
			if st != tt.want.Stats {
				t.Errorf("WriteKept stats %+v, want %+v", st, tt.want.Stats)
			}
			if diff := cmp.Diff(tt.out, out.String()); diff != "" {
				t.Errorf("WriteKept (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScanReadError(t *testing.T) {
	r := iotest.TimeoutReader(iotest.OneByteReader(strings.NewReader("{\"a\":1}\n{\"b\":2}\n")))
	_, err := Scan(r, nil)
	if err == nil || err != iotest.ErrTimeout {
		t.Fatalf("got %v, want %v", err, iotest.ErrTimeout)
	}
}
