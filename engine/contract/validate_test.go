package contract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// mixedInput has valid records, every kind of error and duplicates, over
// many batches.
func mixedInput(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		switch i % 10 {
		case 3:
			b.WriteString("{not json\n")
		case 5:
			fmt.Fprintf(&b, `{"conversation_id": "c%d", "user_id": 1, "timestamp": "2026-02-10", "messages": []}`+"\n", i)
		case 7:
			fmt.Fprintf(&b, `{"conversation_id": "c%d", "user_id": "u", "timestamp": "2026-02-10", "messages": []}`+"\r", i-1) // duplicate of the line before
		case 9:
			b.WriteString("  \n")
		default:
			fmt.Fprintf(&b, `{"conversation_id": "c%d", "user_id": "u%d", "timestamp": 1770726896, "messages": [{"role": "user", "content": "hi %d"}]}`+"\n", i, i%13, i)
		}
	}
	return b.Bytes()
}

// TestWorkersDoNotChangeReport runs the same input with one and several
// workers: the report and the snapshot must be identical, in input order.
func TestWorkersDoNotChangeReport(t *testing.T) {
	eng, err := NewEngine(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	data := mixedInput(3000)
	run := func(workers int) (*Report, string) {
		var snap bytes.Buffer
		rep, err := eng.Validate(context.Background(), bytes.NewReader(data), Options{InputPath: "m.jsonl", MaxErrors: 10000, Workers: workers, Snapshot: &snap})
		if err != nil {
			t.Fatal(err)
		}
		return rep, snap.String()
	}
	want, wantSnap := run(1)
	if want.TotalLines != 3000 || want.DuplicateIDs != 300 || want.ErrorCount != 900 {
		t.Fatalf("one worker: %d lines, %d duplicates, %d errors; want 3000, 300, 900", want.TotalLines, want.DuplicateIDs, want.ErrorCount)
	}
	for _, w := range []int{2, 4, 7} {
		got, gotSnap := run(w)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%d workers: report differs (-1 worker +%d):\n%s", w, w, diff)
		}
		if gotSnap != wantSnap {
			t.Errorf("%d workers: snapshot differs", w)
		}
	}
}

// TestReadErrorStopsTheRun checks that an input failing mid-way is an error,
// not a report of what was read.
func TestReadErrorStopsTheRun(t *testing.T) {
	eng, err := NewEngine(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("disk on fire")
	r := io.MultiReader(bytes.NewReader(mixedInput(2000)), iotest.ErrReader(boom))
	if _, err := eng.Validate(context.Background(), r, Options{InputPath: "x", MaxErrors: 5}); !errors.Is(err, boom) {
		t.Fatalf("Validate error = %v, want %v", err, boom)
	}
}

// TestSummary checks the counts over valid records only.
func TestSummary(t *testing.T) {
	eng, err := NewEngine(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	in := strings.Join([]string{
		`{"conversation_id": "a", "user_id": "u1", "timestamp": 0, "messages": [{"role": "user", "content": "1"}]}`,
		`{"conversation_id": "b", "user_id": "u2", "timestamp": 0, "messages": []}`,
		`{"conversation_id": "c", "user_id": "u1", "timestamp": 0, "messages": [{"role": "user", "content": "1"}, {"role": "user", "content": "2"}, {"role": "user", "content": "3"}, {"role": "user", "content": "4"}, {"role": "user", "content": "5"}, {"role": "user", "content": "6"}]}`,
		`{"conversation_id": "d", "user_id": "u9", "timestamp": 0, "messages": "not counted"}`,
	}, "\n")
	rep, err := eng.Validate(context.Background(), strings.NewReader(in), Options{InputPath: "s.jsonl", MaxErrors: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := Summary{Conversations: 3, UniqueUsers: 2, Messages: 7, AvgTurns: 7.0 / 3, MinTurns: 0, MaxTurns: 6}
	if diff := cmp.Diff(want, rep.Summary); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if rep.Invalid != 1 || rep.IsValid {
		t.Errorf("invalid %d, is_valid %t; want 1, false", rep.Invalid, rep.IsValid)
	}
}
