package jsonl

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The reader skips a byte-order mark and blank lines, and says so in its
// Layout, for the rules that hold a file to a stricter loader.
func TestReaderLayout(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     Layout
		records  int
	}{
		{"plain", "{}\n{}\n", Layout{}, 2},
		{"no final newline", "{}\n{}", Layout{}, 2},
		{"crlf", "{}\r\n{}\r\n", Layout{}, 2},
		{"bom", "\xef\xbb\xbf{}\n{}\n", Layout{BOM: true}, 2},
		{"bom alone", "\xef\xbb\xbf\n", Layout{BOM: true, Blank: []int{1}, Blanks: 1}, 0},
		{"blank lines", "{}\n\n{}\n \t\n", Layout{Blank: []int{2, 4}, Blanks: 2}, 2},
		{"blank crlf", "{}\r\n\r\n{}\r\n", Layout{Blank: []int{2}, Blanks: 1}, 2},
		{"bom later is data", "{}\n\xef\xbb\xbf{}\n", Layout{}, 2},
	} {
		r := NewReader(strings.NewReader(tc.in))
		n := 0
		for {
			_, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			n++
		}
		if n != tc.records {
			t.Errorf("%s: %d records, want %d", tc.name, n, tc.records)
		}
		if diff := cmp.Diff(tc.want, r.Layout(), cmp.Comparer(func(a, b []int) bool { return cmp.Equal(len(a), len(b)) && (len(a) == 0 || cmp.Equal(a, b)) })); diff != "" {
			t.Errorf("%s: layout (-want +got):\n%s", tc.name, diff)
		}
	}
}

// The blank lines listed are bounded; the count goes on.
func TestReaderLayoutBound(t *testing.T) {
	r := NewReader(strings.NewReader(strings.Repeat("\n", MaxBlankLines+5)))
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("want EOF, got %v", err)
	}
	l := r.Layout()
	if len(l.Blank) != MaxBlankLines || l.Blanks != MaxBlankLines+5 {
		t.Errorf("listed %d, counted %d; want %d and %d", len(l.Blank), l.Blanks, MaxBlankLines, MaxBlankLines+5)
	}
}
