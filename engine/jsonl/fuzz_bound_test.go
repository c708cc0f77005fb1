package jsonl

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// event is what Next returned: a record, or a line skipped for its length.
type event struct {
	Line   int
	Offset int64
	Data   string
	Size   int64 // > 0 for a skipped line
}

// referenceEvents splits data the slow, obvious way: every line over max is
// skipped with its length, every other non-blank line is a record.
func referenceEvents(data []byte, max int) []event {
	var out []event
	var off int64
	for i, rest := 1, data; len(rest) > 0; i++ {
		line, after, found := bytes.Cut(rest, []byte{'\n'})
		n := int64(len(line))
		switch {
		case len(line) > max:
			out = append(out, event{Line: i, Offset: off, Size: n})
		default:
			d := line
			if i == 1 {
				d = bytes.TrimPrefix(d, bom)
			}
			d = bytes.TrimRight(d, "\r")
			if !IsBlank(d) {
				out = append(out, event{Line: i, Offset: off, Data: string(d)})
			}
		}
		off += n
		if found {
			off++
		}
		rest = after
	}
	return out
}

// FuzzReaderBound reads arbitrary bytes with a small line bound and compares
// every record and skipped line with the reference split, through readers
// that return short reads too.
func FuzzReaderBound(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), uint8(3))
	}
	f.Add([]byte("{\"a\":1}\n0123456789abcdef\n{}"), uint8(8))
	f.Add([]byte("0123456789abcdef"), uint8(4))
	f.Add(bytes.Repeat([]byte("x"), 70000), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, m uint8) {
		max := int(m) + 1
		if m == 0 {
			max = 65 << 10 // over the read buffer: the gathering path
		}
		want := referenceEvents(data, max)
		for _, r := range []io.Reader{bytes.NewReader(data), iotest.OneByteReader(bytes.NewReader(data))} {
			rd := NewReader(r)
			rd.SetMaxLineSize(max)
			var got []event
			for i := 0; ; i++ {
				if i > len(data)+1 {
					t.Fatalf("more events than bytes in %q", data)
				}
				rec, err := rd.Next()
				var tl *LineTooLongError
				switch {
				case errors.As(err, &tl):
					if tl.Max != max || rec.Line != tl.Line {
						t.Fatalf("%+v with record line %d", tl, rec.Line)
					}
					// Offset and Size are checked against the reference below.
					if end := tl.Offset + tl.Size; end <= int64(len(data)) && tl.Sum != sha256.Sum256(data[tl.Offset:end]) {
						t.Fatalf("line %d: Sum is not the SHA-256 of its %d bytes", tl.Line, tl.Size)
					}
					got = append(got, event{Line: tl.Line, Offset: tl.Offset, Size: tl.Size})
					continue
				case errors.Is(err, io.EOF):
				case err != nil:
					t.Fatalf("Next: %v", err)
				default:
					got = append(got, event{Line: rec.Line, Offset: rec.Offset, Data: string(rec.Data)})
					continue
				}
				break
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("max %d, input %q (-want +got):\n%s", max, data, diff)
			}
		}
	})
}

// A line over the bound is skipped without being kept: the reader's buffer
// never grows past the bound, however long the line.
func TestReaderDiscardsLongLine(t *testing.T) {
	const max = 1 << 20
	long := io.LimitReader(zeros{}, 50<<20)
	in := io.MultiReader(long, bytes.NewReader([]byte("\n{\"a\":1}\n")))
	rd := NewReader(in)
	rd.SetMaxLineSize(max)
	_, err := rd.Next()
	var tl *LineTooLongError
	if !errors.As(err, &tl) || tl.Size != 50<<20 || tl.Line != 1 {
		t.Fatalf("first Next: %v", err)
	}
	if cap(rd.buf) > max+64<<10 {
		t.Errorf("buffer grew to %d bytes", cap(rd.buf))
	}
	rec, err := rd.Next()
	if err != nil || string(rec.Data) != `{"a":1}` || rec.Line != 2 || rec.Offset != 50<<20+1 {
		t.Fatalf("second Next: %+v, %v", rec, err)
	}
	if _, err := rd.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("third Next: %v", err)
	}
}

// zeros is an endless stream of '0' bytes, like /dev/zero without a newline.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '0'
	}
	return len(p), nil
}
