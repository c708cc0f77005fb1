package jsonl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSlabCopiesOutlastTheReader: records copied into a slab keep their
// bytes after the reader has reused its buffer for every later line (lines
// of every size: in the bufio buffer, gathered in the reader's own, in a
// chunk, on their own), with a byte-order mark and CRLF endings.
func TestSlabCopiesOutlastTheReader(t *testing.T) {
	var in strings.Builder
	in.WriteString("\uFEFF")
	var want []Record
	off := int64(0)
	for i := range 300 {
		data := fmt.Sprintf(`{"i":%d,"s":"%s"}`, i, strings.Repeat("abcdefghij"[i%10:i%10+1], (i*37)%9000))
		if i%50 == 7 {
			data = fmt.Sprintf(`{"i":%d,"s":"%s"}`, i, strings.Repeat("x", 100<<10)) // past bufio's 64 KB
		}
		end := "\n"
		if i%3 == 0 {
			end = "\r\n"
		}
		raw := data + end
		if i == 0 {
			raw = "\uFEFF" + raw
		}
		want = append(want, Record{Line: i + 1, Data: []byte(data), Offset: off, Raw: []byte(raw), End: end})
		off += int64(len(raw))
		in.WriteString(data + end)
	}
	r := NewReader(strings.NewReader(in.String()))
	var s Slab
	var got []Record
	for i := 0; ; i++ {
		if i%40 == 0 {
			s.Reset()
			s.SetChunk(i * 1000) // none at first, then growing chunks
		}
		rec, err := r.Next()
		if err != nil {
			break
		}
		got = append(got, s.Copy(rec))
	}
	if diff := cmp.Diff(view(want), view(got)); diff != "" {
		t.Fatalf("records after reading on (-want +got):\n%s", diff)
	}
	for i, rec := range got {
		if cap(rec.Raw) != len(rec.Raw) || cap(rec.Data) != len(rec.Data) {
			t.Fatalf("record %d: capacity beyond its bytes (Raw %d of %d, Data %d of %d): an append would write over the next record",
				i+1, len(rec.Raw), cap(rec.Raw), len(rec.Data), cap(rec.Data))
		}
	}
	// Appending to one record's bytes leaves its neighbour in the chunk alone.
	_ = append(got[41].Raw, "garbage"...)
	if diff := cmp.Diff(view(want[42:43]), view(got[42:43])); diff != "" {
		t.Errorf("appending to record 42 changed record 43 (-want +got):\n%s", diff)
	}
}

// TestSlabHeld: what a slab says it keeps alive counts each chunk whole from
// its first copy (a chunk lives while any of its records does), and each
// record copied on its own by its size; Reset starts over with a new chunk.
func TestSlabHeld(t *testing.T) {
	rec := func(n int) Record {
		b := []byte(strings.Repeat("a", n-1) + "\n")
		return Record{Data: b[:n-1], Raw: b, End: "\n"}
	}
	var s Slab
	steps := []struct {
		name  string
		chunk int // SetChunk before the copy; -1 leaves it
		reset bool
		size  int
		held  int64
	}{
		{"no chunk yet: on its own", -1, false, 100, 100},
		{"below the least chunk: on its own", MinSlabChunk - 1, false, 100, 200},
		{"the first small record starts a chunk", 64 << 10, false, 100, 200 + 64<<10},
		{"the next fits in it", -1, false, 5000, 200 + 64<<10},
		{"over an eighth of the chunk: on its own", -1, false, 8<<10 + 1, 200 + 64<<10 + 8<<10 + 1},
		{"a chunk full: the next starts another", -1, false, 8 << 10, 200 + 64<<10 + 8<<10 + 1},
		{"after Reset, a new chunk, charged anew", -1, true, 10, 64 << 10},
		{"chunks are at most MaxSlabChunk", 8 * MaxSlabChunk, true, 10, MaxSlabChunk},
	}
	for _, st := range steps {
		if st.reset {
			s.Reset()
		}
		if st.chunk >= 0 {
			s.SetChunk(st.chunk)
		}
		if st.name == "a chunk full: the next starts another" {
			for range 7 { // 100 + 5000 + 7×8 KB fit in 64 KB, an eighth does not
				s.Copy(rec(8 << 10))
			}
			st.held += 64 << 10
		}
		r := rec(st.size)
		c := s.Copy(r)
		if diff := cmp.Diff(r, c); diff != "" {
			t.Fatalf("%s: copy differs (-want +got):\n%s", st.name, diff)
		}
		if got := s.Held(); got != st.held {
			t.Errorf("%s: Held = %d, want %d", st.name, got, st.held)
		}
	}
}

// TestSlabRecordWithoutRaw: a record built by hand, with Data only, is
// copied all the same.
func TestSlabRecordWithoutRaw(t *testing.T) {
	var s Slab
	s.SetChunk(MinSlabChunk)
	b := []byte(`{"a":1}`)
	c := s.Copy(Record{Line: 3, Data: b})
	b[2] = 'X'
	if string(c.Data) != `{"a":1}` || c.Raw != nil || c.Line != 3 {
		t.Errorf("copy = %+v, want its own Data and no Raw", c)
	}
}

// seen is a record as strings: go-cmp compares a string at once, a byte
// slice byte by byte.
type seen struct {
	Line      int
	Offset    int64
	Data, Raw string
	End       string
}

func view(recs []Record) []seen {
	out := make([]seen, len(recs))
	for i, r := range recs {
		out[i] = seen{r.Line, r.Offset, string(r.Data), string(r.Raw), r.End}
	}
	return out
}
