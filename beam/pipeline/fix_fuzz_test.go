package pipeline

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/jsonl"
)

// readAndFix is a fixing job without Beam: ReadFn's reading, then FixFn on
// every unit. It returns the output lines (sorted), the rejects and the
// summary.
func readAndFix(t *testing.T, fn *FixFn, name string, data []byte) (lines []string, rejects []string, sum Summary) {
	t.Helper()
	ctx := context.Background()
	acc := SummaryFn{Fix: true}.CreateAccumulator()
	tally := func(tl Tally) { acc = SummaryFn{Fix: true}.AddInput(acc, tl) }
	out := &output{finding: func(string) {}, tally: tally}
	var units []Unit
	open := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	if err := (&ReadFn{Fix: true}).readFix(ctx, name, int64(len(data)), open, func(u Unit) { units = append(units, u) }, out); err != nil {
		t.Fatalf("read: %v", err)
	}
	for _, u := range units {
		fn.ProcessElement(ctx, u, func(s string) {
			if !strings.HasSuffix(s, "\n") {
				t.Fatalf("a block of lines without its last newline: %q", s)
			}
			ls := strings.SplitAfter(s, "\n")
			lines = append(lines, ls[:len(ls)-1]...) // the "" after the last newline
		}, func(s string) { rejects = append(rejects, s) }, func(string) {}, tally)
	}
	slices.Sort(lines)
	return lines, rejects, acc
}

// FuzzFixKeepsUntouchedLines: whatever the bytes, a fixing job never
// panics, never loses a line it did not mean to drop, and writes every
// line of a document no rule changed byte for byte; what it drops is in
// the rejects.
func FuzzFixKeepsUntouchedLines(f *testing.F) {
	const stray = `{"id":"s1","messages":[{"role":"user","content":"q"},{"role":"tool","tool_call_id":"c9","content":"stray"},{"role":"assistant","content":"a"}]}`
	seeds := []string{
		chat + "\n" + stray + "\n",
		"\xEF\xBB\xBF" + stray + "\r\n\r\n" + chat + "\r\n",
		chat + "\n" + stray,
		"nope\n" + stray + "\n[1]\n" + chat + "\n",
		"nope\n" + `{"dialogue":[]}` + "\n" + stray + "\n",
		`{"type":"session","id":"s1"}` + "\n" + `{"type":"message","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}` + "\n{oops\n",
		`{"timestamp":"2024-05-01T10:00:00Z","session_id":"s","request":{"messages":[]},"response":{}}` + "\n",
		"",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	fx, err := LoadFix(nil, 0)
	if err != nil {
		f.Fatal(err)
	}
	fn := &FixFn{Fix: *fx}
	if err := fn.Setup(context.Background()); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data string) {
		got, rejects, sum := readAndFix(t, fn, "f.jsonl", []byte(data))
		if len(rejects) != sum.Fix.Dropped {
			t.Errorf("%d rejects, the summary says %d dropped", len(rejects), sum.Fix.Dropped)
		}
		if sum.Fix.Changed > 0 {
			return
		}
		// A file that is not JSON Lines at all (text with no JSON object
		// near its start, binary) is refused whole, as chatlint fix refuses
		// it: the reader gives no records, the output holds none.
		if k := jsonl.Sniff("f.jsonl", []byte(data), true).Kind; k == jsonl.Binary || k == jsonl.Text {
			if len(got) > 0 {
				t.Errorf("a file that is not JSON Lines gave output lines %q", got)
			}
			return
		}
		// Nothing changed: the output is the input's lines, each with its
		// ending ("\n" after a last line without one), blank lines and a
		// byte-order mark aside.
		var want []string
		in := strings.TrimPrefix(data, "\xEF\xBB\xBF")
		for _, l := range strings.SplitAfter(in, "\n") {
			if strings.TrimSpace(l) == "" {
				continue
			}
			if !strings.HasSuffix(l, "\n") {
				l += "\n"
			}
			want = append(want, l)
		}
		slices.Sort(want)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("unchanged input, output differs (-input +output):\n%s\ninput: %q", diff, shorten(data))
		}
	})
}
