package sweep

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStrings(t *testing.T) {
	var items []string
	for i := range 40 {
		items = append(items, fmt.Sprintf("case %02d", i))
	}
	got := Strings(items, 5)
	if Full() {
		if diff := cmp.Diff(items, got); diff != "" {
			t.Fatalf("full sweep left cases out (-all +got):\n%s", diff)
		}
		return
	}
	if len(got) != 5 {
		t.Fatalf("picked %d of 40, want 5: %q", len(got), got)
	}
	// The same cases whatever order they are listed in.
	rev := make([]string, len(items))
	for i, s := range items {
		rev[len(items)-1-i] = s
	}
	back := Strings(rev, 5)
	set := map[string]bool{}
	for _, s := range back {
		set[s] = true
	}
	for _, s := range got {
		if !set[s] {
			t.Errorf("%q picked in one order and not in the other: %q vs %q", s, got, back)
		}
	}
	if diff := cmp.Diff(items[:3], Strings(items[:3], 5)); diff != "" {
		t.Errorf("fewer cases than the sample: all of them (-want +got):\n%s", diff)
	}
}

func TestKeysKeepsAlways(t *testing.T) {
	m := map[string]int{}
	for i := range 30 {
		m[fmt.Sprintf("set %02d", i)] = i
	}
	got := Keys(m, 4, "set 07")
	want := 4
	if Full() {
		want = 30
	}
	if len(got) != want {
		t.Fatalf("got %d keys, want %d: %q", len(got), want, got)
	}
	found := false
	for _, k := range got {
		found = found || k == "set 07"
	}
	if !found {
		t.Errorf("the key named in always is not in the sample: %q", got)
	}
}
