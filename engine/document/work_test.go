package document

import (
	"bytes"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/internal/denselines"
)

// TestWorkCountsCallsAndParts: a message's tool calls and the parts of its
// raw content are work for the rules as messages are, so a record of two
// messages and a million calls is given the time limit of a million
// messages, not of two. An entry list counts as before.
func TestWorkCountsCallsAndParts(t *testing.T) {
	var calls, parts bytes.Buffer
	nCalls, err := denselines.Write(&calls, "calls", 40_000)
	if err != nil {
		t.Fatal(err)
	}
	nParts, err := denselines.Write(&parts, "parts", 40_000)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		record string
		want   int
	}{
		{"plain", `{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]}`, 2},
		{"no messages", `{"prompt": "q"}`, 1},
		{"calls", calls.String(), 2 + nCalls},
		{"content parts", parts.String(), 2 + nParts},
		{"a content object is no list of parts", `{"messages": [{"role": "user", "content": {"a": "b", "c": "d"}}]}`, 1},
	} {
		for _, f := range []struct {
			name   string
			fields *Fields
		}{{"whole", nil}, {"every member", NewFields(func(...string) bool { return true })}} {
			d := one(t, Chat, Options{Fields: f.fields}, strings.TrimSpace(c.record))
			if got := d.Work(); got != c.want {
				t.Errorf("%s, %s: Work() = %d, want %d", c.name, f.name, got, c.want)
			}
		}
	}
}
