package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/lint"
)

// TestProjectedDropsBigFirstRecord: detection's whole decode of a file's
// first record is handed on to the check (Unit.First) only under
// lint.HandOverMax when the check projects (check: a record of 829,284
// tool calls held 349 MB more as detection's OPA objects than as the
// projection's views); commands that build whole records (stats, convert,
// fix) reuse it at any size, as their whole decode would build it again
// without sharing identical content parts. (The bound on values is
// raised: 100,000 parts are 300,001 values.)
func TestProjectedDropsBigFirstRecord(t *testing.T) {
	record := func(n int) string {
		return `{"messages":[{"role":"user","content":[` + strings.TrimSuffix(strings.Repeat(`{"type":"text","text":"a"},`, n), ",") + `]}]}` + "\n"
	}
	for _, c := range []struct {
		parts     int
		projected bool
		handover  bool
	}{
		{1000, true, true},
		{100_000, true, false},
		{100_000, false, true},
	} {
		data := record(c.parts)
		var handed []bool
		_, err := ReadInput(context.Background(), Input{Name: "d.jsonl", Reader: strings.NewReader(data + data), Stored: true},
			Options{Projected: c.projected, Document: document.Options{MaxValues: 1_000_000}}, func(j Job) { handed = append(handed, j.Unit.First != nil) })
		if err != nil {
			t.Fatal(err)
		}
		if len(handed) != 2 || handed[0] != c.handover || handed[1] {
			t.Errorf("%d parts (%d KB), projected %v: handed over %v, want [%v false]", c.parts, len(data)>>10, c.projected, handed, c.handover)
		}
		if big := len(data) >= lint.HandOverMax; big == c.handover && c.projected {
			t.Fatalf("the test's record sizes are wrong: %d bytes", len(data))
		}
	}
}
