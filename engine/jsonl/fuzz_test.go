package jsonl

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

var fuzzSeeds = []string{
	"",
	"\n",
	"{}\n",
	"{\"a\":1}\r\n{\"b\":2}",
	"\xEF\xBB\xBF{\"a\":1}\n",
	"\xEF\xBB\xBF\n\r\n \t\n",
	"a\rb\r\r\n",
	"\r",
	"\r\r\n\r",
	"[1,\n2]\n",
	"\xff\xfe\n\x00",
	"[\n{\"a\":1},\n{\"b\":2}\n]",
	"{\n\"messages\": []\n}",
	"{\"a\":1}{\"b\":2}",
	"[{\"a\":1}]]",
}

// FuzzReader reads arbitrary bytes to the end: no panic, termination, and
// records that are non-blank, without a trailing CR, with strictly increasing
// line numbers that never pass the number of lines in the input.
func FuzzReader(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, r := range []io.Reader{bytes.NewReader(data), iotest.HalfReader(bytes.NewReader(data))} {
			rd := NewReader(r)
			maxLine := bytes.Count(data, []byte{'\n'}) + 1
			last := 0
			var total int
			for i := 0; ; i++ {
				if i > len(data)+1 {
					t.Fatalf("more records than bytes in %q", data)
				}
				rec, err := rd.Next()
				if err != nil {
					if !errors.Is(err, io.EOF) {
						t.Fatalf("Next: %v", err)
					}
					break
				}
				if IsBlank(rec.Data) {
					t.Fatalf("blank record %q at line %d", rec.Data, rec.Line)
				}
				if bytes.HasSuffix(rec.Data, []byte{'\r'}) {
					t.Fatalf("record %q at line %d ends in CR", rec.Data, rec.Line)
				}
				if bytes.IndexByte(rec.Data, '\n') >= 0 {
					t.Fatalf("record %q at line %d holds a newline", rec.Data, rec.Line)
				}
				if rec.Line <= last || rec.Line > maxLine {
					t.Fatalf("line %d after line %d (input has %d lines)", rec.Line, last, maxLine)
				}
				if !bytes.Contains(data, rec.Data) {
					t.Fatalf("record %q is not in the input", rec.Data)
				}
				last = rec.Line
				total += len(rec.Data)
			}
			if total > len(data) {
				t.Fatalf("records hold %d bytes, input %d", total, len(data))
			}
			if _, err := rd.Next(); !errors.Is(err, io.EOF) {
				t.Fatalf("Next after the end: %v", err)
			}
		}
	})
}

// FuzzSplitJSON splits arbitrary bytes: no panic, and when it is a .json
// document the records are in order, inside the input, with line numbers in
// range, and any error is a *SyntaxError with a line in range.
func FuzzSplitJSON(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, ok, err := SplitJSON(data)
		maxLine := bytes.Count(data, []byte{'\n'}) + 1
		if !ok {
			if recs != nil || err != nil {
				t.Fatalf("not ok but %d records, error %v", len(recs), err)
			}
			return
		}
		last := 0
		for _, r := range recs {
			if r.Line < last || r.Line < 1 || r.Line > maxLine {
				t.Fatalf("record line %d after %d (input has %d lines)", r.Line, last, maxLine)
			}
			if !bytes.Contains(data, r.Data) {
				t.Fatalf("record %q is not in the input", r.Data)
			}
			last = r.Line
		}
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is %T, not *SyntaxError", err, err)
			}
			if se.Line < 1 || se.Line > maxLine || se.Line < last {
				t.Fatalf("error line %d (last record line %d, input has %d lines)", se.Line, last, maxLine)
			}
		}
	})
}
