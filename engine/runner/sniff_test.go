package runner

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/lint"
)

// A stored file read through a reader that cannot seek (an object in a
// bucket, a decompressed .gz: Input.Stored) is told from its head as a file
// on disk is: text or binary gets one not-jsonl finding and no record; JSON
// Lines is read from its first byte. A stream that may wait is not sniffed.
func TestSniffStoredReader(t *testing.T) {
	const chat = `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}` + "\n"
	cases := []struct {
		name    string
		data    string
		stored  bool
		want    []string // rules of the findings the reader made
		records int
	}{
		{"text, stored", "A0", true, []string{lint.RuleNotJSONL}, 0},
		{"binary, stored", "\x00\x01\x02\xff\xfe", true, []string{lint.RuleNotJSONL}, 0},
		{"JSON Lines, stored", chat + chat, true, nil, 2},
		{"JSON Lines after a broken line, stored", "nope\n" + chat, true, nil, 2}, // the check reports the line
		{"text, a stream", "A0", false, nil, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var rules []string
			records := 0
			r := io.NopCloser(bytes.NewReader([]byte(c.data))) // no Seek
			_, _, err := ReadInputLayout(context.Background(), Input{Name: "f.jsonl", Reader: r, Stored: c.stored}, Options{}, func(j Job) {
				if j.Finding != nil {
					rules = append(rules, j.Finding.Rule)
					return
				}
				records += len(j.Unit.Records)
			})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, rules); diff != "" || records != c.records {
				t.Errorf("findings (-want +got):\n%s\nrecords %d, want %d", diff, records, c.records)
			}
		})
	}
}
