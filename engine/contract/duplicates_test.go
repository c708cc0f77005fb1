package contract

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// duplicatesInput interleaves record errors with repeated conversation_ids
// (an empty id is an id too; a record failing the contract reserves none).
func duplicatesInput() string {
	v := func(id, user string) string {
		return fmt.Sprintf(`{"conversation_id": %q, "user_id": %q, "timestamp": "2026-01-01T00:00:00Z", "messages": [{"role": "user", "content": "x"}]}`, id, user)
	}
	return strings.Join([]string{
		v("c1", "u1"),
		"not json",
		v("c1", "u2"), // duplicate of 1; u2 is not counted
		`{"conversation_id": "c2", "user_id": 5, "timestamp": "2026-01-01T00:00:00Z", "messages": []}`,
		v("c2", "u3"),
		v("c1", "u1"),
		v("c2", "u3"),
		v("", "u4"),
		v("", "u4"),
	}, "\n") + "\n"
}

// The duplicate ids are the contract pack's dataset rule's
// (contract-duplicate-id); their errors join the records' in line order,
// and those beyond --max-errors are counted, as the contract validator
// does (the figures are its report's on this input).
func TestDuplicateIDsFromDatasetRule(t *testing.T) {
	eng, err := NewEngine(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	type line struct {
		Line int
		Code string
	}
	for _, tc := range []struct {
		max     int
		errs    []line
		dropped int
	}{
		{0, nil, 6},
		{2, []line{{2, CodeInvalidJSON}, {3, CodeDuplicateID}}, 4},
		{3, []line{{2, CodeInvalidJSON}, {3, CodeDuplicateID}, {4, CodeSchema}}, 3},
		{10, []line{{2, CodeInvalidJSON}, {3, CodeDuplicateID}, {4, CodeSchema}, {6, CodeDuplicateID}, {7, CodeDuplicateID}, {9, CodeDuplicateID}}, 0},
	} {
		rep, err := eng.Validate(context.Background(), strings.NewReader(duplicatesInput()), Options{InputPath: "in.jsonl", MaxErrors: tc.max})
		if err != nil {
			t.Fatal(err)
		}
		var got []line
		for _, e := range rep.Errors {
			got = append(got, line{e.Line, e.Code})
		}
		if diff := cmp.Diff(tc.errs, got); diff != "" {
			t.Errorf("max %d: errors (-want +got):\n%s", tc.max, diff)
		}
		counts := [6]int{rep.ErrorCount, rep.DroppedErrors, rep.DuplicateIDs, rep.UniqueIDs, rep.Valid, rep.Summary.UniqueUsers}
		if want := [6]int{6, tc.dropped, 4, 3, 3, 3}; counts != want {
			t.Errorf("max %d: errors, dropped, duplicates, unique ids, valid, users = %v, want %v", tc.max, counts, want)
		}
	}
	rep, err := eng.Validate(context.Background(), strings.NewReader(duplicatesInput()), Options{InputPath: "in.jsonl", MaxErrors: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Duplicate conversation_id 'c1' in dataset (first seen on line 1).",
		"Duplicate conversation_id 'c1' in dataset (first seen on line 1).",
		"Duplicate conversation_id 'c2' in dataset (first seen on line 5).",
		"Duplicate conversation_id '' in dataset (first seen on line 8).",
	}
	var got []string
	for _, e := range rep.Errors {
		if e.Code == CodeDuplicateID {
			got = append(got, e.Message)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}

// The fold lists a repeated id only while its error can be among the
// report's first MaxErrors: with 20 000 repeats and --max-errors 5, the
// dataset document lists 5 and counts the rest.
func TestDuplicateListBounded(t *testing.T) {
	eng, err := NewEngine(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for range 20001 {
		b.WriteString(`{"conversation_id": "same", "user_id": "u", "timestamp": 0, "messages": []}` + "\n")
	}
	a := newAccount(Options{InputPath: "in.jsonl", MaxErrors: 5})
	ev := eng.newEvaluator("in.jsonl", 0)
	for i, l := range strings.SplitAfter(b.String(), "\n") {
		if l == "" {
			continue
		}
		v, err := ev.checkLine(context.Background(), i+1, []byte(l), false)
		if err != nil {
			t.Fatal(err)
		}
		v.line = i + 1
		if err := a.add(lineVerdict{verdict: v}); err != nil {
			t.Fatal(err)
		}
	}
	distinct, repeats, listed := a.ds.Keys()
	if distinct != 1 || repeats != 20000 || listed != 5 {
		t.Errorf("distinct %d, repeats %d, listed %d; want 1, 20000, 5", distinct, repeats, listed)
	}
	rep, err := a.report(context.Background(), eng)
	if err != nil {
		t.Fatal(err)
	}
	if rep.ErrorCount != 20000 || rep.DuplicateIDs != 20000 || len(rep.Errors) != 5 || rep.DroppedErrors != 19995 {
		t.Errorf("errors %d, duplicates %d, listed %d, dropped %d", rep.ErrorCount, rep.DuplicateIDs, len(rep.Errors), rep.DroppedErrors)
	}
}
