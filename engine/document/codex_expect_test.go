package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/internal/codexgen"
)

// TestCodexExpectSizesOnce: a rollout's builder told its number of lines
// holds its entries and messages in the lists it sized then, without a
// growth (each growth a copy of every message so far), and builds the
// document it builds without being told.
func TestCodexExpectSizesOnce(t *testing.T) {
	var lines []string
	for _, l := range codexgen.Rollout(3000) {
		lines = append(lines, string(l))
	}
	want := docMap(t, one(t, Codex, Options{}, lines...))

	b := NewBuilder(Codex, "f.jsonl", Options{})
	e, ok := b.(Expecter)
	if !ok {
		t.Fatal("the Codex builder is no Expecter")
	}
	e.Expect(len(lines))
	c := b.(*codex)
	entries, ms := cap(c.entries), cap(c.ms)
	for i, l := range lines {
		b.Add(i+1, obj(t, l))
	}
	if cap(c.entries) != entries || cap(c.ms) != ms {
		t.Errorf("entries %d of room %d → %d, messages %d of room %d → %d: grown", len(c.entries), entries, cap(c.entries),
			len(c.ms), ms, cap(c.ms))
	}
	if diff := cmp.Diff(want, docMap(t, b.Finish())); diff != "" {
		t.Errorf("document (-without +with Expect):\n%s", diff)
	}
}
