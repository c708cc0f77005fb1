package jsonl

import (
	"fmt"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// pieces returns its strings one Read at a time, as a pipe does when its
// writer pauses.
type pieces []string

func (p *pieces) Read(b []byte) (int, error) {
	if len(*p) == 0 {
		return 0, io.EOF
	}
	n := copy(b, (*p)[0])
	(*p)[0] = (*p)[0][n:]
	if (*p)[0] == "" {
		*p = (*p)[1:]
	}
	return n, nil
}

// TestReady: Ready says true only when Next can return a record (or the end)
// from what is buffered, for both splits, with blank lines skipped or kept.
func TestReady(t *testing.T) {
	for _, c := range []struct {
		name      string
		split     Split
		keepBlank bool
		in        pieces
		want      []string // before each Next: Ready, and the record Next returned
	}{
		{"a line cut between reads", SplitLF, false, pieces{`{"a":1}` + "\n" + `{"b"`, `:2}` + "\n"},
			[]string{`false {"a":1}`, `false {"b":2}`, "false EOF"}},
		{"two lines in one read", SplitLF, false, pieces{`{"a":1}` + "\n" + `{"b":2}` + "\n", `{"c":3}` + "\n"},
			[]string{`false {"a":1}`, `true {"b":2}`, `false {"c":3}`, "false EOF"}},
		{"only blank lines buffered", SplitLF, false, pieces{`{"a":1}` + "\n\n  \n", `{"b":2}` + "\n"},
			[]string{`false {"a":1}`, `false {"b":2}`, "false EOF"}},
		{"blank lines kept", SplitLF, true, pieces{`{"a":1}` + "\n\n", `{"b":2}` + "\n"},
			[]string{`false {"a":1}`, `true `, `false {"b":2}`, "false EOF"}},
		{"universal: a CR that may be a CRLF", SplitUniversal, false, pieces{`{"a":1}` + "\r", "\n" + `{"b":2}` + "\r" + `{"c":3}` + "\r"},
			[]string{`false {"a":1}`, `true {"b":2}`, `false {"c":3}`, "true EOF"}},
		{"universal: blank lines", SplitUniversal, false, pieces{`{"a":1}` + "\n\r\n \r" + `{"b":2}` + "\n"},
			[]string{`false {"a":1}`, `true {"b":2}`, "false EOF"}}, // the end not yet read
	} {
		t.Run(c.name, func(t *testing.T) {
			r := NewReader(&c.in)
			r.SetSplit(c.split)
			r.SetKeepBlank(c.keepBlank)
			var got []string
			for {
				ready := r.Ready()
				rec, err := r.Next()
				if err != nil {
					got = append(got, fmt.Sprint(ready, " EOF"))
					break
				}
				got = append(got, fmt.Sprintf("%v %s", ready, rec.Data))
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("Ready before each Next (-want +got):\n%s", diff)
			}
		})
	}
}
