package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/contract"
)

// TestContractDefectsMatchReport generates contract records and checks that
// validate-input's engine reports exactly the manifest's defects, at their
// lines and with their codes, and nothing on the clean records.
func TestContractDefectsMatchReport(t *testing.T) {
	dir := t.TempDir()
	out, man := filepath.Join(dir, "c.jsonl"), filepath.Join(dir, "m.json")
	if err := run([]string{"-format", "contract", "-records", "3000", "-defects", "0.02", "-seed", "7", "-o", out, "-manifest", man, "-q"}, nil, os.Stderr); err != nil {
		t.Fatal(err)
	}
	var entries []manifestEntry
	b, err := os.ReadFile(man)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &entries); err != nil {
		t.Fatal(err)
	}
	type defect struct {
		Line int
		Code string
	}
	var want []defect
	for _, e := range entries {
		want = append(want, defect{e.Line, e.Defect})
	}
	eng, err := contract.NewEngine(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := eng.Validate(context.Background(), bytes.NewReader(data), contract.Options{InputPath: out, MaxErrors: 1000})
	if err != nil {
		t.Fatal(err)
	}
	var got []defect
	for _, e := range rep.Errors {
		got = append(got, defect{e.Line, e.Code})
	}
	if len(want) < 50 {
		t.Fatalf("only %d defects in 3000 records at 2%%", len(want))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("report errors vs manifest (-want +got):\n%s", diff)
	}
	if rep.TotalLines != 3000 || rep.Valid != 3000-len(want) {
		t.Errorf("total %d, valid %d; want 3000 lines, %d valid", rep.TotalLines, rep.Valid, 3000-len(want))
	}
}

// TestContractDeterministic checks that the same seed gives the same bytes.
func TestContractDeterministic(t *testing.T) {
	gen := func() []byte {
		var b bytes.Buffer
		if err := run([]string{"-format", "contract", "-records", "200", "-q"}, &b, os.Stderr); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	if a, b := gen(), gen(); !bytes.Equal(a, b) || len(a) == 0 {
		t.Fatal("two runs with the same seed differ")
	}
}
