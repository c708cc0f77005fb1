package astjson

import (
	"runtime"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// dense is a list of n zeros.
func dense(n int) string { return "[" + strings.TrimSuffix(strings.Repeat("0,", n), ",") + "]" }

// TestDenseArraysNotBuilt: a list of numbers inside a record is not built
// where the reader only looks for strings, objects and arrays in it. Built
// whole, a 60 MB line of them took some 16 bytes of terms per element, and
// 1.7 GB of allocations with the scratch it was gathered on. Here a 6 MB
// list may cost at most a few hundred KB, whether detection reads the
// record's shape (DecodeShape) or a projection stubs the member
// (Others) or keeps a content list's first part (Dense).
func TestDenseArraysNotBuilt(t *testing.T) {
	list := dense(3_000_000)
	extra := []byte(`{"messages":[{"role":"user","content":"x","extra":` + list + `}]}`)
	parts := []byte(`{"messages":[{"role":"user","content":` + list + `}]}`)
	msg := &Projection{Object: true, KeepOthers: true, Others: &Projection{Stub: true},
		Members: map[string]*Projection{"role": nil, "content": {Dense: 1}}}
	chat := &Projection{Object: true, Members: map[string]*Projection{"messages": {Elem: msg}}}
	for _, tc := range []struct {
		name string
		data []byte
		dec  func([]byte) (ast.Value, error)
	}{
		{"shape of a member", extra, func(b []byte) (ast.Value, error) { v, _, err := DecodeShape(b); return v, err }},
		{"shape of a content list", parts, func(b []byte) (ast.Value, error) { v, _, err := DecodeShape(b); return v, err }},
		{"a member stubbed", extra, func(b []byte) (ast.Value, error) { return DecodeProjected(b, chat) }},
		{"a content list kept dense", parts, func(b []byte) (ast.Value, error) { return DecodeProjected(b, chat) }},
	} {
		var err error
		n := allocated(func() { _, err = tc.dec(tc.data) })
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if n > 512<<10 {
			t.Errorf("%s: a %d MB record allocated %d KB", tc.name, len(tc.data)>>20, n>>10)
		}
	}
	if _, whole, _ := DecodeShape(extra); whole {
		t.Error("DecodeShape of a record with a 3M-element list says it is whole")
	}
	small := []byte(`{"messages":[{"role":"user","content":"x","extra":` + dense(shapeDense) + `}]}`)
	v, whole, err := DecodeShape(small)
	if want, _ := Decode(small); err != nil || !whole || v.Compare(want) != 0 {
		t.Errorf("DecodeShape of a list of %d: whole %v, err %v, equal %v", shapeDense, whole, err, v.Compare(want) == 0)
	}
}

// TestHugeArrayKeepsItsScratch: an array of a million elements and more
// keeps the stack it was gathered on (takeScratch) instead of a copy; its
// value is the reference's, below other pending elements too, and a later
// decode by the same pooled decoder does not write into it.
func TestHugeArrayKeepsItsScratch(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes 2 million elements twice")
	}
	huge := dense(hugeArray)
	for _, in := range []string{
		huge,
		`{"a":` + huge + `,"b":[1,2]}`,
		`[1,2,3,4,5,6,7,8,9,10,` + huge + `,11]`, // ten elements pending below it
		`[` + strings.Repeat(`"x",`, hugeArray) + huge + `]`,
	} {
		got, err := Decode([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Decode([]byte(strings.ReplaceAll(in, "0", "1"))); err != nil {
			t.Fatal(err)
		}
		want, err := reference([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		checkSame(t, []byte(in), got, want)
	}
}
