package jsonl

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// rec is a Record with its data as a string, for readable expectations.
type rec struct {
	Line int
	Data string
}

// readAll reads every record of r, copying the data (a Reader's data is only
// valid until the next call to Next). It stops at the first error, which it
// returns (io.EOF at a clean end).
func readAll(t testing.TB, r io.Reader) ([]rec, error) {
	t.Helper()
	rd := NewReader(r)
	var out []rec
	for {
		got, err := rd.Next()
		if err != nil {
			if len(got.Data) != 0 || got.Line != 0 {
				t.Errorf("Next returned record %+v together with error %v", got, err)
			}
			return out, err
		}
		out = append(out, rec{Line: got.Line, Data: string(got.Data)})
	}
}

func TestReader(t *testing.T) {
	long := strings.Repeat("x", 200<<10) // longer than the 64 KB buffer
	longJSON := `{"a":"` + long + `"}`
	tests := []struct {
		name string
		in   string
		want []rec
	}{
		{name: "empty file", in: "", want: nil},
		{name: "only newlines", in: "\n\n\n", want: nil},
		{name: "one line with newline", in: "{\"a\":1}\n", want: []rec{{1, `{"a":1}`}}},
		{name: "truncated last line", in: "{\"a\":1}\n{\"b\":2", want: []rec{{1, `{"a":1}`}, {2, `{"b":2`}}},
		{name: "only a truncated line", in: `{"a"`, want: []rec{{1, `{"a"`}}},
		{
			name: "LF endings",
			in:   "{}\n[]\n1\n",
			want: []rec{{1, "{}"}, {2, "[]"}, {3, "1"}},
		},
		{
			name: "CRLF endings stripped",
			in:   "{\"a\":1}\r\n{\"b\":2}\r\n",
			want: []rec{{1, `{"a":1}`}, {2, `{"b":2}`}},
		},
		{
			name: "CR before EOF stripped",
			in:   "{\"a\":1}\r\n{\"b\":2}\r",
			want: []rec{{1, `{"a":1}`}, {2, `{"b":2}`}},
		},
		{
			name: "CRCRLF from a double conversion stripped",
			in:   "{\"a\":1}\r\r\n{\"b\":2}\r\r\n",
			want: []rec{{1, `{"a":1}`}, {2, `{"b":2}`}},
		},
		{
			name: "CR inside a line kept",
			in:   "a\rb\r\n",
			want: []rec{{1, "a\rb"}},
		},
		{
			name: "mixed LF and CRLF",
			in:   "1\r\n2\n3\r\n4",
			want: []rec{{1, "1"}, {2, "2"}, {3, "3"}, {4, "4"}},
		},
		{
			name: "blank and whitespace-only lines skipped but counted",
			in:   "\n{\"a\":1}\n   \n\t\n \t \r\n\r\n{\"b\":2}\n\n",
			want: []rec{{2, `{"a":1}`}, {7, `{"b":2}`}},
		},
		{
			name: "leading and trailing whitespace of a record kept",
			in:   "  {\"a\":1}  \n",
			want: []rec{{1, `  {"a":1}  `}},
		},
		{
			name: "BOM at start stripped",
			in:   "\xEF\xBB\xBF{\"a\":1}\n{\"b\":2}\n",
			want: []rec{{1, `{"a":1}`}, {2, `{"b":2}`}},
		},
		{
			name: "BOM with CRLF",
			in:   "\xEF\xBB\xBF{\"a\":1}\r\n",
			want: []rec{{1, `{"a":1}`}},
		},
		{
			name: "BOM alone on the first line is a blank line",
			in:   "\xEF\xBB\xBF\n{\"a\":1}\n",
			want: []rec{{2, `{"a":1}`}},
		},
		{
			name: "BOM only file",
			in:   "\xEF\xBB\xBF",
			want: nil,
		},
		{
			name: "BOM on a later line kept",
			in:   "{\"a\":1}\n\xEF\xBB\xBF{\"b\":2}\n",
			want: []rec{{1, `{"a":1}`}, {2, "\xEF\xBB\xBF{\"b\":2}"}},
		},
		{
			name: "BOM on the first line after blank lines kept",
			in:   "\n\xEF\xBB\xBF{\"b\":2}\n",
			want: []rec{{2, "\xEF\xBB\xBF{\"b\":2}"}},
		},
		{
			name: "only one BOM stripped",
			in:   "\xEF\xBB\xBF\xEF\xBB\xBF{}\n",
			want: []rec{{1, "\xEF\xBB\xBF{}"}},
		},
		{
			name: "invalid UTF-8 passed through",
			in:   "{\"a\":\"\xff\xfe\xc3\"}\n\x80\x81\n",
			want: []rec{{1, "{\"a\":\"\xff\xfe\xc3\"}"}, {2, "\x80\x81"}},
		},
		{
			name: "NUL bytes passed through",
			in:   "{\x00}\n",
			want: []rec{{1, "{\x00}"}},
		},
		{
			name: "non-object lines returned as is",
			in:   "42\n\"str\"\n[1,2]\nnull\nnot json at all\n{",
			want: []rec{{1, "42"}, {2, `"str"`}, {3, "[1,2]"}, {4, "null"}, {5, "not json at all"}, {6, "{"}},
		},
		{
			name: "long line then short lines",
			in:   longJSON + "\n{\"b\":2}\n\n{\"c\":3}\n",
			want: []rec{{1, longJSON}, {2, `{"b":2}`}, {4, `{"c":3}`}},
		},
		{
			name: "short, long, short, long without newline",
			in:   "1\n" + longJSON + "\r\n2\n" + long,
			want: []rec{{1, "1"}, {2, longJSON}, {3, "2"}, {4, long}},
		},
		{
			name: "line of exactly the buffer size",
			in:   strings.Repeat("y", 64<<10) + "\n" + strings.Repeat("z", 64<<10-1) + "\n3\n",
			want: []rec{{1, strings.Repeat("y", 64<<10)}, {2, strings.Repeat("z", 64<<10-1)}, {3, "3"}},
		},
		{
			name: "long whitespace-only line skipped",
			in:   strings.Repeat(" ", 100<<10) + "\n{}\n",
			want: []rec{{2, "{}"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, mode := range []struct {
				name string
				wrap func(io.Reader) io.Reader
			}{
				{"whole", func(r io.Reader) io.Reader { return r }},
				{"one byte at a time", iotest.OneByteReader},
				{"half reads", iotest.HalfReader},
			} {
				if mode.name == "one byte at a time" && len(tc.in) > 1<<20 {
					continue
				}
				got, err := readAll(t, mode.wrap(strings.NewReader(tc.in)))
				if !errors.Is(err, io.EOF) {
					t.Errorf("%s: error = %v, want io.EOF", mode.name, err)
				}
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("%s: records (-want +got):\n%s", mode.name, shorten(diff))
				}
			}
		})
	}
}

// shorten keeps diffs of huge lines readable.
func shorten(s string) string {
	if len(s) > 4000 {
		return s[:4000] + "…"
	}
	return s
}

func TestReaderEmptyFileEOFImmediately(t *testing.T) {
	rd := NewReader(strings.NewReader(""))
	for i := range 3 {
		got, err := rd.Next()
		if !errors.Is(err, io.EOF) || got.Line != 0 || got.Data != nil {
			t.Fatalf("call %d: Next() = %+v, %v; want zero record and io.EOF", i, got, err)
		}
	}
}

func TestReaderEOFIsSticky(t *testing.T) {
	rd := NewReader(strings.NewReader("{}\n{}"))
	for range 2 {
		if _, err := rd.Next(); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 {
		if _, err := rd.Next(); !errors.Is(err, io.EOF) {
			t.Fatalf("call %d after the end: err = %v, want io.EOF", i, err)
		}
	}
}

var errBoom = errors.New("boom")

func TestReaderErrorIsReturnedAndSticky(t *testing.T) {
	r := io.MultiReader(strings.NewReader("{\"a\":1}\n{\"b\""), iotest.ErrReader(errBoom))
	rd := NewReader(r)
	got, err := rd.Next()
	if err != nil || got.Line != 1 || string(got.Data) != `{"a":1}` {
		t.Fatalf("first Next() = %+v, %v", got, err)
	}
	for i := range 2 {
		if _, err := rd.Next(); !errors.Is(err, errBoom) {
			t.Fatalf("call %d: err = %v, want %v", i, err, errBoom)
		}
	}
}

func TestReaderErrorInsideLongLine(t *testing.T) {
	r := io.MultiReader(strings.NewReader(strings.Repeat("a", 100<<10)), iotest.ErrReader(errBoom))
	if _, err := NewReader(r).Next(); !errors.Is(err, errBoom) {
		t.Fatalf("err = %v, want %v", err, errBoom)
	}
}

// TestReaderHugeLine reads a 60 MB single line, far beyond any buffer, and the
// short lines around it.
func TestReaderHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("60 MB line")
	}
	const size = 60 << 20
	huge := bytes.Repeat([]byte("abcdefghijklmnopqrstuvwxyz"), size/26+1)[:size]
	huge[0], huge[size-1] = '"', '"'
	in := io.MultiReader(
		strings.NewReader("{\"first\":1}\r\n\n"),
		bytes.NewReader(huge),
		strings.NewReader("\r\n{\"last\":2}"),
	)

	rd := NewReader(in)
	want := []struct {
		line int
		data []byte
	}{
		{1, []byte(`{"first":1}`)},
		{3, huge},
		{4, []byte(`{"last":2}`)},
	}
	for _, w := range want {
		got, err := rd.Next()
		if err != nil {
			t.Fatalf("line %d: %v", w.line, err)
		}
		if got.Line != w.line {
			t.Errorf("Line = %d, want %d", got.Line, w.line)
		}
		if !bytes.Equal(got.Data, w.data) {
			t.Errorf("line %d: data of %d bytes differs from the %d bytes written", w.line, len(got.Data), len(w.data))
		}
	}
	if _, err := rd.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last record: %v, want io.EOF", err)
	}
}

// TestReaderReusesBuffer documents that a record's data is valid only until
// the next call: a caller that keeps records must copy them.
func TestReaderDataValidUntilNext(t *testing.T) {
	long1 := strings.Repeat("1", 70<<10)
	long2 := strings.Repeat("2", 70<<10)
	rd := NewReader(strings.NewReader(long1 + "\n" + long2 + "\n"))
	a, err := rd.Next()
	if err != nil {
		t.Fatal(err)
	}
	kept := bytes.Clone(a.Data)
	b, err := rd.Next()
	if err != nil {
		t.Fatal(err)
	}
	if string(kept) != long1 || string(b.Data) != long2 {
		t.Fatalf("records mixed up: got %d and %d bytes", len(kept), len(b.Data))
	}
}

func TestRecordRawAndOffset(t *testing.T) {
	in := "\xEF\xBB\xBF{\"a\":1}\r\n\n  \r\n{\"b\":2}\n{\"c\":3}"
	type rec struct {
		Line   int
		Data   string
		Offset int64
		Raw    string
	}
	want := []rec{
		{1, `{"a":1}`, 0, "\xEF\xBB\xBF{\"a\":1}\r\n"},
		{4, `{"b":2}`, 17, "{\"b\":2}\n"},
		{5, `{"c":3}`, 25, `{"c":3}`},
	}
	rd := NewReader(strings.NewReader(in))
	var got, cloned []rec
	var joined strings.Builder
	for {
		r, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, rec{r.Line, string(r.Data), r.Offset, string(r.Raw)})
		if in[r.Offset:r.Offset+int64(len(r.Raw))] != string(r.Raw) {
			t.Errorf("line %d: Raw is not the input at Offset", r.Line)
		}
		c := r.Clone()
		cloned = append(cloned, rec{c.Line, string(c.Data), c.Offset, string(c.Raw)})
		joined.Write(c.Raw)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, cloned); diff != "" {
		t.Errorf("clones (-want +got):\n%s", diff)
	}
	// Writing Raw back for every record gives the input minus its blank lines.
	if got, want := joined.String(), "\xEF\xBB\xBF{\"a\":1}\r\n{\"b\":2}\n{\"c\":3}"; got != want {
		t.Errorf("joined Raw %q, want %q", got, want)
	}
}
