package jsonl

import (
	"crypto/sha256"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// universalLines returns every line of rd read with SplitUniversal and
// blank lines kept, each as read less its terminator, through a tiny buffer
// so that every boundary case crosses a read. It checks that the raw lines
// put together are the input and that offsets follow them.
func universalLines(t testing.TB, rd io.Reader, in string) []string {
	t.Helper()
	r := NewReader(rd)
	r.SetSplit(SplitUniversal)
	r.SetKeepBlank(true)
	r.uni.buf = make([]byte, 8)
	var out []string
	var raw strings.Builder
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Offset != int64(raw.Len()) || rec.Line != len(out)+1 {
			t.Fatalf("line %d at offset %d, want line %d at offset %d", rec.Line, rec.Offset, len(out)+1, raw.Len())
		}
		raw.Write(rec.Raw)
		out = append(out, string(rec.Raw[:len(rec.Raw)-len(rec.End)]))
	}
	if raw.String() != in {
		t.Fatalf("raw lines put together = %q, want the input %q", raw.String(), in)
	}
	return out
}

// cutAll returns every line of s, split off one by one with Cut.
func cutAll(s Split, in string) []string {
	var out []string
	for b := []byte(in); len(b) > 0; {
		var line []byte
		line, b = s.Cut(b)
		out = append(out, string(line))
	}
	return out
}

// universalReference splits s with the rules of Python's universal
// newlines, simply.
func universalReference(s string) []string {
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

func TestSplitUniversal(t *testing.T) {
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
		{"byte-order mark kept in Raw", "\ufeff{}\r", []string{"\ufeff{}"}},
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
				if diff := cmp.Diff(tc.want, universalLines(t, rd.r, tc.in)); diff != "" {
					t.Errorf("%s reads (-want +got):\n%s", rd.name, diff)
				}
			}
			if diff := cmp.Diff(tc.want, cutAll(SplitUniversal, tc.in)); diff != "" {
				t.Errorf("Cut (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSplitLFKeepsCR checks that the default split is unchanged: a lone CR
// is part of the line.
func TestSplitLFKeepsCR(t *testing.T) {
	var got []string
	r := NewReader(strings.NewReader("a\rb\r\nc\n"))
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(rec.Data)+"|"+rec.End)
	}
	if diff := cmp.Diff([]string{"a\rb|\r\n", "c|\n"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a\rb", "c"}, cutAll(SplitLF, "a\rb\r\nc\n")); diff != "" {
		t.Errorf("Cut (-want +got):\n%s", diff)
	}
}

// TestKeepBlank checks that blank lines are records only when asked for.
func TestKeepBlank(t *testing.T) {
	for _, keep := range []bool{false, true} {
		r := NewReader(strings.NewReader("{}\n \n\n{}\n"))
		r.SetKeepBlank(keep)
		var lines []int
		for {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, rec.Line)
		}
		want := []int{1, 4}
		if keep {
			want = []int{1, 2, 3, 4}
		}
		if diff := cmp.Diff(want, lines); diff != "" {
			t.Errorf("keep blank %t: lines (-want +got):\n%s", keep, diff)
		}
	}
}

// TestSplitUniversalTooLong checks the line bound under SplitUniversal: a
// longer line is reported with its length and hash, and reading goes on.
func TestSplitUniversalTooLong(t *testing.T) {
	long := strings.Repeat("x", 40)
	in := "ab\r" + long + "\r\ncd\r" + long
	r := NewReader(iotest.HalfReader(strings.NewReader(in)))
	r.SetSplit(SplitUniversal)
	r.SetMaxLineSize(10)
	r.uni.buf = make([]byte, 8)
	type got struct {
		Line   int
		Offset int64
		Data   string
		Size   int64
	}
	var gots []got
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var tl *LineTooLongError
		switch {
		case errors.As(err, &tl):
			if tl.Sum != sha256.Sum256([]byte(long)) {
				t.Errorf("line %d: hash is not that of the line", tl.Line)
			}
			gots = append(gots, got{Line: tl.Line, Offset: tl.Offset, Size: tl.Size})
		case err != nil:
			t.Fatal(err)
		default:
			gots = append(gots, got{Line: rec.Line, Offset: rec.Offset, Data: string(rec.Data)})
		}
	}
	want := []got{{1, 0, "ab", 0}, {2, 3, "", 40}, {3, 45, "cd", 0}, {4, 48, "", 40}}
	if diff := cmp.Diff(want, gots); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSplitUniversalReadError(t *testing.T) {
	boom := errors.New("boom")
	r := NewReader(io.MultiReader(strings.NewReader("a\rb"), iotest.ErrReader(boom)))
	r.SetSplit(SplitUniversal)
	if rec, err := r.Next(); err != nil || string(rec.Data) != "a" {
		t.Fatalf("Next() = %q, %v; want \"a\"", rec.Data, err)
	}
	if _, err := r.Next(); !errors.Is(err, boom) {
		t.Fatalf("Next() error = %v, want %v", err, boom)
	}
}

func FuzzSplitUniversal(f *testing.F) {
	for _, s := range []string{"", "a\nb", "a\r\nb\r", "\r\r\n\n", "x\r", "\r\n", strings.Repeat("ab\r", 9)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := universalReference(s)
		if diff := cmp.Diff(want, universalLines(t, iotest.OneByteReader(strings.NewReader(s)), s)); diff != "" {
			t.Fatalf("one-byte reads of %q (-want +got):\n%s", s, diff)
		}
		if diff := cmp.Diff(want, universalLines(t, strings.NewReader(s), s)); diff != "" {
			t.Fatalf("reads of %q (-want +got):\n%s", s, diff)
		}
		if diff := cmp.Diff(want, cutAll(SplitUniversal, s)); diff != "" {
			t.Fatalf("Cut of %q (-want +got):\n%s", s, diff)
		}
	})
}
