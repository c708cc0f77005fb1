package repair

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/jsonl"
)

// referenceRecords counts the records kept by the session-file repair of the
// agent runtimes chatlint replaces (the floor repair must reach): it splits
// on LF or CRLF, skips lines that trim to nothing and keeps a line that
// parses as JSON as a whole, whatever the value.
func referenceRecords(data []byte) int {
	n := 0
	for _, line := range regexp.MustCompile(`\r?\n`).Split(string(data), -1) {
		if strings.TrimSpace(line) != "" && json.Valid([]byte(line)) {
			n++
		}
	}
	return n
}

// FuzzScan scans arbitrary bytes: no panic, an end; kept records are taken
// from the input and are valid UTF-8 JSON; never fewer records than the
// reference; no line that check reads as JSON is dropped; and the rewrite is
// stable: scanning it
// drops nothing, splits nothing, finds the same records, and writing it again
// gives the same bytes.
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		"", "\n", "{}\n", "{\"a\":1}\r\n{\"b\":2}", "\xEF\xBB\xBF{\"a\":1}\n", "\xEF\xBB\xBF\n{\n",
		"{\"a\":1}\r{\"b\":2}\n", "{\"a\":\r1}\n", "{\"a\":1}\r{\"b\":\n", "a\rb\r\r\n", "\r", "\r\r\n\r",
		"{\"a\":\"\xff\"}\n", "1\r2\r \r3", "{\"type\":\"session\",\"id\":\"s\"}\nx\n", "[1,\n2]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var kept [][]byte
		st, err := Scan(iotest.HalfReader(bytes.NewReader(data)), func(r Record) error {
			if r.Kept {
				// RFC 8259 JSON text. (Not "what check reads": check also
				// refuses numbers too large for it, such as 1E70000, which
				// are valid JSON and so are kept.)
				if !json.Valid(r.Data) || !utf8.Valid(r.Data) || (r.Split && !jsonl.IsObject(r.Data)) {
					t.Fatalf("kept %q, not valid JSON text (of an object, for a piece of a split line)", r.Data)
				}
				if jsonl.IsBlank(r.Data) || bytes.IndexByte(r.Data, '\n') >= 0 {
					t.Fatalf("kept %q: blank or holds a newline", r.Data)
				}
				kept = append(kept, bytes.Clone(r.Data))
			} else if _, err := astjson.Decode(r.Data); err == nil {
				t.Fatalf("dropped line %d %q, which check reads as JSON", r.Line, r.Data)
			}
			if !r.Mended && !bytes.Contains(data, r.Data) {
				t.Fatalf("record %q is not in the input", r.Data)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if st.Records != len(kept) || st.Records+st.Dropped > len(data) || st.Mended > st.Records {
			t.Fatalf("stats %+v for %d kept records of %d bytes", st, len(kept), len(data))
		}
		if ref := referenceRecords(data); st.Records < ref {
			t.Fatalf("kept %d records, the reference %d", st.Records, ref)
		}

		var out bytes.Buffer
		if _, err := WriteKept(&out, bytes.NewReader(data)); err != nil {
			t.Fatal(err)
		}
		if out.Len() > 0 && !bytes.HasSuffix(out.Bytes(), []byte{'\n'}) {
			t.Fatalf("rewrite %q has no final newline", out.Bytes())
		}
		var again [][]byte
		st2, _ := Scan(bytes.NewReader(out.Bytes()), func(r Record) error {
			again = append(again, bytes.Clone(r.Data))
			return nil
		})
		if st2 != (Stats{Records: st.Records}) {
			t.Fatalf("rescan of the rewrite: %+v, want %d records only", st2, st.Records)
		}
		for i := range kept {
			if !bytes.Equal(kept[i], again[i]) {
				t.Fatalf("record %d: %q, rewritten %q", i, kept[i], again[i])
			}
		}
		var out2 bytes.Buffer
		WriteKept(&out2, bytes.NewReader(out.Bytes()))
		if !bytes.Equal(out.Bytes(), out2.Bytes()) {
			t.Fatalf("second rewrite differs:\n%q\n%q", out.Bytes(), out2.Bytes())
		}
	})
}
