package astjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
)

// textValues counts the values of a JSON text as the bound counts them:
// every member value and element, at any depth, including a member whose
// key repeats an earlier one; not the top-level value.
func textValues(t testing.TB, data []byte) int {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct{ obj, wantValue bool }
	var stack []frame
	n := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			continue
		}
		if len(stack) > 0 && stack[len(stack)-1].obj {
			top := &stack[len(stack)-1]
			if !top.wantValue { // a key
				top.wantValue = true
				continue
			}
			top.wantValue = false
		}
		n++
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, frame{obj: d == '{'})
		}
	}
	return n - 1
}

// checkBounded holds DecodeMax to its contract on one input and bound:
// Decode's error when Decode refuses the input, Decode's value when the
// input has at most max values, a *DenseError naming max otherwise.
func checkBounded(t *testing.T, data []byte, max int) {
	t.Helper()
	want, wantErr := Decode(data)
	got, err := DecodeMax(data, max)
	if wantErr != nil {
		if err == nil || err.Error() != wantErr.Error() {
			t.Fatalf("DecodeMax(%q, %d) error %v, want Decode's %v", data, max, err, wantErr)
		}
		return
	}
	n := textValues(t, data)
	allowed := Allowance(max, len(data)) // a sparse record's most
	var de *DenseError
	switch {
	case n <= max && err != nil:
		t.Fatalf("DecodeMax(%q, %d) = %v; it has %d values", data, max, err, n)
	case n <= max:
		checkSame(t, data, got, want)
	case err == nil && n <= allowed:
		checkSame(t, data, got, want)
	case !errors.As(err, &de):
		t.Fatalf("DecodeMax(%q, %d) = %v, %v; it has %d values, want a *DenseError", data, max, got, err, n)
	case de.Max < max || de.Max > allowed || de.Size != len(data) || de.Offset < 0 || de.Offset > len(data):
		t.Fatalf("DecodeMax(%q, %d): %+v", data, max, de)
	}
}

func TestDecodeMaxCounts(t *testing.T) {
	for _, tc := range []struct {
		in     string
		values int
	}{
		{`0`, 0},
		{`[]`, 0},
		{`{}`, 0},
		{`[1,2,3]`, 3},
		{`{"a":1,"b":[true,null,"x"]}`, 5},
		{`{"a":1,"a":2}`, 2}, // a repeated key counts: it was built
		{`[[[[]]]]`, 3},
		{`{"messages":[{"role":"user","content":"xyz"},{"role":"assistant","content":"xyz"}]}`, 7},
	} {
		if n := textValues(t, []byte(tc.in)); n != tc.values {
			t.Fatalf("textValues(%s) = %d, want %d", tc.in, n, tc.values)
		}
		for _, max := range []int{tc.values - 1, tc.values, tc.values + 1} {
			if max <= 0 {
				continue
			}
			t.Run(tc.in, func(t *testing.T) { checkBounded(t, []byte(tc.in), max) })
		}
	}
}

// TestDecodeMaxErrorsFirst: an input Decode refuses is refused with the
// same error however far past the bound it is, so a record's finding does
// not depend on the bound.
func TestDecodeMaxErrorsFirst(t *testing.T) {
	many := strings.Repeat(`"s",`, 5000)
	for _, in := range []string{
		`[` + many + `x]`,
		`{"a":[` + many + `1],"b":` + "\xff" + `}`,
		`[` + many + `1e999999]`,
		`[` + many + `1]]`,
		`[` + many,
	} {
		checkBounded(t, []byte(in), 10)
		if _, err := DecodeMax([]byte(in), 10); err == nil || errors.As(err, new(*DenseError)) {
			t.Fatalf("DecodeMax(%.40q…) = %v, want Decode's error", in, err)
		}
	}
}

// TestDecodeMaxStopsEarly: a decode over its bound stops there, so it never
// holds more than the bound's values: a 4 MB list of strings under a bound
// of 1,000 allocates a few KB, where the whole list is megabytes of terms.
func TestDecodeMaxStopsEarly(t *testing.T) {
	data := []byte(`{"messages":[` + strings.Repeat(`{"role":"user","content":"xyzzy plugh"},`, 100_000) + `{}]}`)
	for _, decode := range []struct {
		name string
		f    func() error
	}{
		{"DecodeMax", func() error { _, err := DecodeMax(data, 1000); return err }},
		{"DecodeShapeMax", func() error { _, _, err := DecodeShapeMax(data, 1000); return err }},
		{"DecodeProjectedMax", func() error {
			_, err := DecodeProjectedMax(data, &Projection{Object: true, KeepOthers: true}, 1000)
			return err
		}},
	} {
		var de *DenseError
		if err := decode.f(); !errors.As(err, &de) || de.Max != 1000 {
			t.Fatalf("%s: %v, want a *DenseError of max 1000", decode.name, err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		decode.f()
		runtime.ReadMemStats(&after)
		if got := after.TotalAlloc - before.TotalAlloc; got > 512<<10 {
			t.Errorf("%s allocated %d bytes over its bound of 1000 values, want at most 512 KiB", decode.name, got)
		}
	}
}

// TestDecodeMaxLeftOutNotCounted: what a projection or DecodeShape leaves
// out or keeps as a stand-in does not count, so a record whose dense value
// no reader builds is under any bound its built part is under.
func TestDecodeMaxLeftOutNotCounted(t *testing.T) {
	zeros := `{"messages":[{"role":"user","content":"hi","extra":[` + strings.Repeat(`0,`, 100_000) + `0]}]}`
	if _, _, err := DecodeShapeMax([]byte(zeros), 1000); err != nil {
		t.Fatalf("DecodeShapeMax on a dense list of numbers: %v", err)
	}
	if _, err := DecodeMax([]byte(zeros), 1000); !errors.As(err, new(*DenseError)) {
		t.Fatalf("DecodeMax on 100,001 numbers under a bound of 1000: %v, want a *DenseError", err)
	}
	msg := &Projection{Object: true, Members: map[string]*Projection{"role": nil, "content": nil, "extra": {Stub: true}}}
	p := &Projection{Object: true, Members: map[string]*Projection{"messages": {Elem: msg}}}
	for _, q := range []*Projection{p, {Object: true, Members: map[string]*Projection{"messages": {Elem: &Projection{Object: true, Members: map[string]*Projection{"role": nil}}}}}} {
		if _, err := DecodeProjectedMax([]byte(zeros), q, 5); err != nil {
			t.Fatalf("DecodeProjectedMax with the list left out: %v", err)
		}
	}
	digest := &Projection{Object: true, Members: map[string]*Projection{"messages": {Elem: &Projection{Object: true, KeepOthers: true, Others: &Projection{Digest: true}}}}}
	if _, err := DecodeProjectedMax([]byte(zeros), digest, 5); err != nil {
		t.Fatalf("DecodeProjectedMax with the list a stand-in: %v", err)
	}
}

// TestDecodeMaxRepeatCacheCharged: a value the repeat cache hands out is
// charged what building it counted, so the verdict on a record is the same
// the first time and every time after.
func TestDecodeMaxRepeatCacheCharged(t *testing.T) {
	tools := `[` + strings.Repeat(`{"type":"function","function":{"name":"lookup_order","parameters":{}}},`, 20) + `1]`
	data := []byte(`{"tools":` + tools + `,"messages":[]}`)
	n := textValues(t, data)
	for range 4 { // the second decode remembers it, the third takes it from the cache
		if _, err := DecodeMax(data, n); err != nil {
			t.Fatalf("DecodeMax at its count %d: %v", n, err)
		}
		if _, err := DecodeMax(data, n-1); !errors.As(err, new(*DenseError)) {
			t.Fatalf("DecodeMax under its count %d: %v, want a *DenseError", n, err)
		}
	}
}

func TestDenseErrorMessage(t *testing.T) {
	_, err := DecodeMax([]byte(`[1,2,3]`), 2)
	want := "the record holds more than 2 values (the limit was reached at byte 6 of 7)"
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
}

// FuzzDecodeMax holds DecodeMax to Decode and the count on arbitrary input
// and bounds.
func FuzzDecodeMax(f *testing.F) {
	for _, in := range validInputs {
		f.Add([]byte(in), uint16(3))
	}
	for _, tc := range invalidInputs {
		f.Add([]byte(tc.in), uint16(1))
	}
	f.Add([]byte(chatRecord), uint16(10))
	f.Add([]byte(manyKeys(40, true)), uint16(39))
	f.Fuzz(func(t *testing.T, data []byte, max uint16) {
		checkBounded(t, data, int(max)+1)
	})
}

func TestAllowance(t *testing.T) {
	for _, tc := range []struct {
		name      string
		max, size int
		want      int
	}{
		{"default, a small record", 0, 1 << 20, DefaultMaxValues},
		{"a record too short to be sparse keeps the bound", 1000, 1000 * SparseBytes, 1000},
		{"a value per SparseBytes", 1000, 2000 * SparseBytes, 2000},
		{"capped at SparseFactor times", 1000, 100_000 * SparseBytes, SparseFactor * 1000},
		{"the default bound on a 60 MB document", 0, 60 << 20, SparseFactor * DefaultMaxValues},
		{"no bound", -1, 1 << 30, int(^uint(0) >> 1)},
	} {
		if got := Allowance(tc.max, tc.size); got != tc.want {
			t.Errorf("%s: Allowance(%d, %d) = %d, want %d", tc.name, tc.max, tc.size, got, tc.want)
		}
	}
}

// TestDecodeMaxSparseRecord: a record of long strings (a trajectory's
// steps) builds more values than the bound, a value per SparseBytes of
// its text up to SparseFactor times the bound; a dense record of the same
// size, or a sparse opening followed by a dense rest, does not.
func TestDecodeMaxSparseRecord(t *testing.T) {
	list := func(parts ...string) []byte { return []byte("[" + strings.Join(parts, ",") + "]") }
	long := `"` + strings.Repeat("x", 2*SparseBytes) + `"` // a value per 98 bytes
	short := `0`
	longs := func(n int) []string { return slices.Repeat([]string{long}, n) }
	shorts := func(n int) []string { return slices.Repeat([]string{short}, n) }
	for _, tc := range []struct {
		name    string
		data    []byte
		max     int
		wantMax int // 0: decoded whole; -1: stopped under the ceiling
	}{
		{"sparse, over the bound", list(longs(15)...), 10, 0},
		{"sparse, at twice the bound", list(longs(SparseFactor * 10)...), 10, 0},
		{"sparse, over SparseFactor times the bound", list(longs(30)...), 5, SparseFactor * 5},
		{"dense", list(shorts(30 * 2 * SparseBytes / 2)...), 10, 10},
		{"sparse opening, dense rest", list(append(longs(15), shorts(1000)...)...), 20, -1},
	} {
		v, err := DecodeMax(tc.data, tc.max)
		var de *DenseError
		switch {
		case tc.wantMax == 0 && err != nil:
			t.Errorf("%s: %v, want it decoded", tc.name, err)
		case tc.wantMax == 0:
			checkSame(t, tc.data, v, mustDecode(t, tc.data))
		case !errors.As(err, &de):
			t.Errorf("%s: %v, want a *DenseError", tc.name, err)
		case tc.wantMax < 0 && (de.Max <= 15 || de.Max >= SparseFactor*tc.max):
			t.Errorf("%s: stopped at an allowance of %d, want one past the sparse opening and under %d", tc.name, de.Max, SparseFactor*tc.max)
		case tc.wantMax > 0 && de.Max != tc.wantMax:
			t.Errorf("%s: stopped at an allowance of %d, want %d", tc.name, de.Max, tc.wantMax)
		}
	}
}

func mustDecode(t *testing.T, data []byte) ast.Value {
	t.Helper()
	v, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
