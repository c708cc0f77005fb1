package lines

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// readAll returns every line of in, read through r's own buffering.
func readAll(t testing.TB, rd io.Reader) []string {
	t.Helper()
	r := NewReader(rd)
	r.buf = make([]byte, 8) // tiny buffer: every boundary case crosses a read
	var out []string
	for {
		line, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(line))
	}
}

// cutAll returns every line of s, split off one by one with Cut.
func cutAll(s string) []string {
	var out []string
	for b := []byte(s); len(b) > 0; {
		var line []byte
		line, b = Cut(b)
		out = append(out, string(line))
	}
	return out
}

// reference splits s with the rules of Python's universal newlines, simply.
func reference(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i])
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		s = s[i+1:]
	}
	return out
}

func TestNext(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"LF", "a\nb\n", []string{"a", "b"}},
		{"CRLF", "a\r\nb\r\n", []string{"a", "b"}},
		{"lone CR", "a\rb\r", []string{"a", "b"}},
		{"mixed", "a\r\nb\rc\nd", []string{"a", "b", "c", "d"}},
		{"CR CR LF is two lines", "a\r\r\nb", []string{"a", "", "b"}},
		{"LF CR is two terminators", "a\n\rb", []string{"a", "", "b"}},
		{"no final newline", "a\nb", []string{"a", "b"}},
		{"blank lines", "\n\n", []string{"", ""}},
		{"only CR", "\r", []string{""}},
		{"long line", strings.Repeat("x", 100) + "\r\n" + strings.Repeat("y", 50), []string{strings.Repeat("x", 100), strings.Repeat("y", 50)}},
		{"other separators are not line ends", "a\u2028b\x85c\fd\ve", []string{"a\u2028b\x85c\fd\ve"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, rd := range []struct {
				name string
				r    io.Reader
			}{
				{"whole", strings.NewReader(tc.in)},
				{"one byte", iotest.OneByteReader(strings.NewReader(tc.in))},
				{"data with EOF", iotest.DataErrReader(strings.NewReader(tc.in))},
			} {
				if diff := cmp.Diff(tc.want, readAll(t, rd.r)); diff != "" {
					t.Errorf("%s reads (-want +got):\n%s", rd.name, diff)
				}
			}
			if diff := cmp.Diff(tc.want, cutAll(tc.in)); diff != "" {
				t.Errorf("Cut (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	r := NewReader(io.MultiReader(strings.NewReader("a\nb"), iotest.ErrReader(boom)))
	for _, want := range []string{"a", "b"} {
		line, err := r.Next()
		if err != nil || string(line) != want {
			t.Fatalf("Next() = %q, %v; want %q", line, err, want)
		}
	}
	if _, err := r.Next(); !errors.Is(err, boom) {
		t.Fatalf("Next() error = %v, want %v", err, boom)
	}
}

func FuzzNext(f *testing.F) {
	for _, s := range []string{"", "a\nb", "a\r\nb\r", "\r\r\n\n", "x\r", "\r\n", strings.Repeat("ab\r", 9)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := reference(s)
		if diff := cmp.Diff(want, readAll(t, iotest.OneByteReader(strings.NewReader(s)))); diff != "" {
			t.Fatalf("one-byte reads of %q (-want +got):\n%s", s, diff)
		}
		if diff := cmp.Diff(want, readAll(t, strings.NewReader(s))); diff != "" {
			t.Fatalf("reads of %q (-want +got):\n%s", s, diff)
		}
		if diff := cmp.Diff(want, cutAll(s)); diff != "" {
			t.Fatalf("Cut of %q (-want +got):\n%s", s, diff)
		}
	})
}
