package jsonl

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitJSON(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []rec
		wantOK  bool
		wantErr *SyntaxError // nil: no error
	}{
		{name: "empty file", in: "", want: nil, wantOK: true},
		{name: "whitespace only", in: " \n\t\r\n", want: nil, wantOK: true},
		{name: "BOM only", in: "\xEF\xBB\xBF", want: nil, wantOK: true},
		{name: "empty array", in: "[]", want: nil, wantOK: true},
		{name: "empty array pretty", in: "[\n]\n", want: nil, wantOK: true},
		{
			name:   "compact array",
			in:     `[{"a":1},{"b":2}]`,
			want:   []rec{{1, `{"a":1}`}, {1, `{"b":2}`}},
			wantOK: true,
		},
		{
			name: "pretty-printed array gives start lines",
			in: "[\n" +
				"  {\n" + //  2
				"    \"a\": 1\n" +
				"  },\n" +
				"  {\"b\": [\n" + // 5
				"    1,\n" +
				"    2\n" +
				"  ]},\n" +
				"\n" +
				"  {\"c\": 3}\n" + // 10
				"]\n",
			want: []rec{
				{2, "{\n    \"a\": 1\n  }"},
				{5, "{\"b\": [\n    1,\n    2\n  ]}"},
				{10, `{"c": 3}`},
			},
			wantOK: true,
		},
		{
			name:   "array with CRLF and BOM",
			in:     "\xEF\xBB\xBF[\r\n{\"a\":1},\r\n{\"b\":2}\r\n]\r\n",
			want:   []rec{{2, `{"a":1}`}, {3, `{"b":2}`}},
			wantOK: true,
		},
		{
			name:   "array after leading blank lines",
			in:     "\n\n[\n{\"a\":1}]",
			want:   []rec{{4, `{"a":1}`}},
			wantOK: true,
		},
		{
			name:   "array of non-objects kept as is",
			in:     "[1, \"s\", null, [2]]",
			want:   []rec{{1, "1"}, {1, `"s"`}, {1, "null"}, {1, "[2]"}},
			wantOK: true,
		},
		{
			name:   "single pretty-printed object",
			in:     "\n{\n  \"messages\": [\n    {\"role\": \"user\"}\n  ]\n}\n",
			want:   []rec{{2, "{\n  \"messages\": [\n    {\"role\": \"user\"}\n  ]\n}"}},
			wantOK: true,
		},
		{
			name:   "single object with BOM",
			in:     "\xEF\xBB\xBF{\"a\":1}",
			want:   []rec{{1, `{"a":1}`}},
			wantOK: true,
		},
		{
			name:   "single object trailing whitespace",
			in:     "{\"a\":1}\n\n  \n",
			want:   []rec{{1, `{"a":1}`}},
			wantOK: true,
		},
		{
			name:   "single scalar",
			in:     " 42 ",
			want:   []rec{{1, "42"}},
			wantOK: true,
		},
		{name: "concatenated objects are JSON Lines", in: "{\"a\":1}\n{\"b\":2}\n", wantOK: false},
		{name: "concatenated objects on one line", in: `{"a":1}{"b":2}`, wantOK: false},
		{name: "object then garbage", in: "{\"a\":1}\nxyz", wantOK: false},
		{name: "truncated document", in: "{\"a\":\n", wantOK: true, wantErr: &SyntaxError{Line: 2, Msg: "unexpected end of file"}},
		{name: "not JSON: one error, not a line-by-line read", in: "hello", wantOK: true, wantErr: &SyntaxError{Line: 1}},
		{
			name:    "truncated array",
			in:      "[\n{\"a\":1},\n{\"b\":",
			want:    []rec{{2, `{"a":1}`}},
			wantOK:  true,
			wantErr: &SyntaxError{Line: 3, Msg: "unexpected end of file"},
		},
		{
			name:    "truncated array after an element",
			in:      "[\n{\"a\":1}\n\n",
			want:    []rec{{2, `{"a":1}`}},
			wantOK:  true,
			wantErr: &SyntaxError{Line: 4, Msg: "unexpected end of file"},
		},
		{
			name:    "truncated array after a comma",
			in:      "[\n{\"a\":1},\n",
			want:    []rec{{2, `{"a":1}`}},
			wantOK:  true,
			wantErr: &SyntaxError{Line: 3, Msg: "unexpected end of file"},
		},
		{
			name:    "only an open bracket",
			in:      "[",
			wantOK:  true,
			wantErr: &SyntaxError{Line: 1, Msg: "unexpected end of file"},
		},
		{
			name:    "invalid element",
			in:      "[\n{\"a\":1},\n{\"b\" 2}\n]",
			want:    []rec{{2, `{"a":1}`}},
			wantOK:  true,
			wantErr: &SyntaxError{Line: 3},
		},
		{
			name:    "invalid element after blank lines",
			in:      "[\n\n\n\n\n{\"a\":1},\n\n\n\n{\"a\":1},  \n\n\n{\"b\" 2}\n]",
			want:    []rec{{6, `{"a":1}`}, {10, `{"a":1}`}},
			wantOK:  true,
			wantErr: &SyntaxError{Line: 13},
		},
		{
			name:    "error in a later element of a long array",
			in:      "[" + strings.Repeat("\n{\"k\": [1, 2, 3]},", 50) + "\n{\"k\": tru}\n]",
			want:    repeatRec(50, `{"k": [1, 2, 3]}`),
			wantOK:  true,
			wantErr: &SyntaxError{Line: 52},
		},
		{
			name:    "trailing comma",
			in:      "[\n{\"a\":1},\n]",
			want:    []rec{{2, `{"a":1}`}},
			wantOK:  true,
			wantErr: &SyntaxError{Line: 3},
		},
		{
			name:    "missing comma",
			in:      "[\n{\"a\":1}\n{\"b\":2}\n]",
			want:    []rec{{2, `{"a":1}`}},
			wantOK:  true,
			wantErr: &SyntaxError{Line: 3},
		},
		{
			name:    "value after the array",
			in:      "[{\"a\":1}]\n\n{\"b\":2}\n",
			want:    []rec{{1, `{"a":1}`}},
			wantOK:  true,
			wantErr: &SyntaxError{Line: 3, Msg: "unexpected data after the top-level array"},
		},
		{
			name:    "second array after the array",
			in:      "[{\"a\":1}]\n[{\"b\":2}]\n",
			want:    []rec{{1, `{"a":1}`}},
			wantOK:  true,
			wantErr: &SyntaxError{Line: 2, Msg: "unexpected data after the top-level array"},
		},
		{
			name:    "stray bracket after the array",
			in:      "[{\"a\":1}]\n]\n",
			want:    []rec{{1, `{"a":1}`}},
			wantOK:  true,
			wantErr: &SyntaxError{Line: 2, Msg: "unexpected data after the top-level array"},
		},
		{
			name:    "stray brace after the array",
			in:      "[{\"a\":1}]\n\n}",
			want:    []rec{{1, `{"a":1}`}},
			wantOK:  true,
			wantErr: &SyntaxError{Line: 3, Msg: "unexpected data after the top-level array"},
		},
		{name: "stray brace after an object", in: "{\"a\":1}\n}\n", wantOK: false},
		{name: "stray bracket after an object", in: "{\"a\":1}]", wantOK: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recs, ok, err := SplitJSON([]byte(tc.in))
			if ok != tc.wantOK {
				t.Fatalf("ok = %v, want %v (err %v)", ok, tc.wantOK, err)
			}
			if !ok {
				if recs != nil || err != nil {
					t.Errorf("not a .json document: got %d records and error %v, want none", len(recs), err)
				}
				return
			}
			var got []rec
			for _, r := range recs {
				got = append(got, rec{Line: r.Line, Data: string(r.Data)})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
			if tc.wantErr == nil {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error = %v (%T), want a *SyntaxError", err, err)
			}
			if se.Line != tc.wantErr.Line {
				t.Errorf("error line = %d, want %d (%v)", se.Line, tc.wantErr.Line, se)
			}
			if tc.wantErr.Msg != "" && se.Msg != tc.wantErr.Msg {
				t.Errorf("error message = %q, want %q", se.Msg, tc.wantErr.Msg)
			}
			if se.Msg == "" || !strings.HasPrefix(se.Error(), "line ") {
				t.Errorf("Error() = %q", se.Error())
			}
		})
	}
}

// TestSplitJSONRecordsOwnTheirData checks that the records do not alias the
// input: the caller may reuse its buffer.
func TestSplitJSONRecordsOwnTheirData(t *testing.T) {
	in := []byte(`[{"a":1}]`)
	recs, ok, err := SplitJSON(in)
	if !ok || err != nil || len(recs) != 1 {
		t.Fatalf("SplitJSON = %v, %v, %v", recs, ok, err)
	}
	for i := range in {
		in[i] = ' '
	}
	if string(recs[0].Data) != `{"a":1}` {
		t.Fatalf("record changed with the input: %q", recs[0].Data)
	}
}

func TestIsDataFileAndIsJSONDocument(t *testing.T) {
	tests := []struct {
		path     string
		data     bool
		document bool
	}{
		{"a.jsonl", true, false},
		{"dir/a.JSONL", true, false},
		{"a.json", true, true},
		{"A.JSON", true, true},
		{"a.json.gz", false, false},
		{"a.txt", false, false},
		{"jsonl", false, false},
		{".json", true, true},
		{"-", false, false},
	}
	for _, tc := range tests {
		if got := IsDataFile(tc.path); got != tc.data {
			t.Errorf("IsDataFile(%q) = %v, want %v", tc.path, got, tc.data)
		}
		if got := IsJSONDocument(tc.path); got != tc.document {
			t.Errorf("IsJSONDocument(%q) = %v, want %v", tc.path, got, tc.document)
		}
	}
}

// repeatRec is n records of the same data, one per line from line 2.
func repeatRec(n int, data string) []rec {
	out := make([]rec, n)
	for i := range out {
		out[i] = rec{Line: i + 2, Data: data}
	}
	return out
}

func TestSplitJSONBrokenDocument(t *testing.T) {
	tests := []struct {
		name     string
		data     string
		wantOK   bool
		wantLine int // 0: no error
	}{
		{"pretty object with an error", "{\n  \"messages\": [\n    {\"role\": \"user\",}\n  ]\n}\n", true, 3},
		{"JSON Lines under a .json name, broken second line", "{\"a\": 1}\n{\"b\": \n", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, ok, err := SplitJSON([]byte(tt.data))
			if ok != tt.wantOK || len(recs) != 0 {
				t.Fatalf("ok = %v, %d records; want ok = %v, none", ok, len(recs), tt.wantOK)
			}
			var se *SyntaxError
			if tt.wantLine == 0 {
				if err != nil {
					t.Fatalf("err = %v, want nil", err)
				}
				return
			}
			if !errors.As(err, &se) || se.Line != tt.wantLine {
				t.Fatalf("err = %v, want a SyntaxError on line %d", err, tt.wantLine)
			}
		})
	}
}
