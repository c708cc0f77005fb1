package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
)

// TestEveryLineUniversal checks the reading validate-input asks of Each:
// lines split as Python's universal newlines, blank lines handed on, a .json
// name read as lines, and the same jobs in the same order however they are
// batched.
func TestEveryLineUniversal(t *testing.T) {
	in := "{\"a\":1}\r\n\r{\"b\":2}\r  \n[1]\n{\"c\":3}"
	type seen struct {
		Line int
		Data string
		End  bool
	}
	want := []seen{
		{1, `{"a":1}`, false}, {2, "", false}, {3, `{"b":2}`, false}, {4, "  ", false},
		{5, "[1]", false}, {6, `{"c":3}`, false}, {0, "", true},
	}
	for _, batch := range []int{0, 1, 2, 256} {
		r := &Runner{Opts: Options{Format: document.Contract, Split: jsonl.SplitUniversal, EveryLine: true, Workers: 3, Batch: batch}}
		var got []seen
		tot, errs := Each(context.Background(), r, []Input{{Name: "x.json", Reader: strings.NewReader(in)}},
			func() func(Job) seen {
				return func(j Job) seen {
					if j.End {
						return seen{End: true}
					}
					return seen{Line: j.Records[0].Line, Data: string(j.Records[0].Data)}
				}
			},
			func(s seen) { got = append(got, s) })
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("batch %d: jobs (-want +got):\n%s", batch, diff)
		}
		if tot.Records != 6 {
			t.Errorf("batch %d: %d records, want 6", batch, tot.Records)
		}
	}
}

// TestDefaultSplitUnchanged checks that without the options a lone CR is
// part of a line, blank lines are skipped and a .json name is a document.
func TestDefaultSplitUnchanged(t *testing.T) {
	var lines []int
	r := &Runner{Opts: Options{Format: document.Contract}}
	_, errs := Each(context.Background(), r, []Input{{Name: "x.jsonl", Reader: strings.NewReader("{\"a\":1}\r{\"b\":2}\n\n{}\n")}},
		func() func(Job) int {
			return func(j Job) int {
				if j.End {
					return 0
				}
				return j.Records[0].Line
			}
		},
		func(n int) { lines = append(lines, n) })
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if diff := cmp.Diff([]int{1, 3, 0}, lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}
