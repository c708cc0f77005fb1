package lint

import (
	"runtime"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/engine/jsonl"
)

// TestNonObjectLineNotBuilt: a line that is not a JSON object is validated
// and reported, never built: a 60 MB array of zeros, decoded whole by
// detection and again by the check, peaked check at 1.36 GB (1.2 GB in
// fix). Errors stay those of the full decoder.
func TestNonObjectLineNotBuilt(t *testing.T) {
	dense := []byte("[" + strings.Repeat("0,", 3_000_000) + "0]")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, _, ok := Detect("d.jsonl", jsonl.Record{Line: 1, Data: dense})
	_, f := Decode("d.jsonl", jsonl.Record{Line: 1, Data: dense})
	runtime.ReadMemStats(&after)
	if ok || f == nil || f.Message != "a record must be a JSON object, not an array" {
		t.Fatalf("Detect ok %v, Decode finding %+v", ok, f)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("a 6 MB array line allocated %d KB to be refused", grew>>10)
	}
	for _, tt := range []struct{ data, want string }{
		{`[1, 2,]`, "invalid JSON: invalid character ']' looking for beginning of value (byte 7)"},
		{`"text"`, "a record must be a JSON object, not a string"},
		{` null`, "a record must be a JSON object, not null"},
		{`-1.5`, "a record must be a JSON object, not a number"},
		{`[1e999999]`, "the record was not checked: number 1e999999 is out of the range the policy engine evaluates (byte 2)"},
	} {
		if _, f := Decode("d.jsonl", jsonl.Record{Line: 1, Data: []byte(tt.data)}); f == nil || f.Message != tt.want {
			t.Errorf("%s: %+v, want %q", tt.data, f, tt.want)
		}
	}
}
