package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/finding"
)

// TestRecordsLargerThanBudget checks that records larger than the whole
// budget are checked one at a time, in order, among small ones.
func TestRecordsLargerThanBudget(t *testing.T) {
	var in strings.Builder
	var want []string
	for i := range 40 {
		text := "a"
		if i%3 == 0 {
			text = strings.Repeat("x", 3000)
		}
		fmt.Fprintf(&in, `{"id":"c%d","messages":[{"role":"user","content":"q"},{"role":"assistant","content":%q}]}`+"\n", i, text)
		want = append(want, fmt.Sprintf("%d chat c%d", i+1, i))
	}
	r := &Runner{Engine: engine(t), Opts: Options{Workers: 4}, budget: 2048}
	var got []string
	_, errs := r.Run(context.Background(), []Input{{Name: "x", Reader: strings.NewReader(in.String())}},
		func(f finding.Finding) { got = append(got, fmt.Sprintf("%d %s", f.Line, f.Message)) })
	if len(errs) > 0 {
		t.Fatalf("Run: %v", errs)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
