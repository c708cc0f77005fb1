package yamlrule

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// TestSharedCountsOfALongSession: the shared answers of a join reach the
// elements of a session of several thousand messages (a 20,000-line Codex
// rollout has about 9,000), each kept in 16 bytes, with the findings of
// the evaluation without them.
func TestSharedCountsOfALongSession(t *testing.T) {
	if n := unsafe.Sizeof(sharedCount{}); n > 16 {
		t.Errorf("a shared answer is %d bytes, want at most 16", n)
	}
	src := `rules:
  - id: a
    severity: error
    description: d
    given: messages[*]
    let:
      calls: {join: 'messages[*].tool_calls[*]', where: {id: {not_empty: true}}, on: {tool_call_id: id}}
    where:
      role: tool
      $calls.count: {not_equals: 1}
    cases:
      - message: 'a {{index}} {{$calls.count}}'
  - id: b
    severity: error
    description: d
    given: messages[*]
    let:
      calls: {join: 'messages[*].tool_calls[*]', where: {id: {not_empty: true}}, on: {tool_call_id: id}}
    where:
      role: tool
      $calls.count: {greater_than: 0}
      $calls.first.name: g
    cases:
      - message: 'b {{index}} {{$calls.first.name}}'
`
	rules := compileRules(t, src)
	var msgs []string
	for i := 0; len(msgs) < 6000; i++ {
		name := "f"
		if i%7 == 0 {
			name = "g"
		}
		msgs = append(msgs, fmt.Sprintf(`{"role": "assistant", "tool_calls": [{"id": "c%d", "type": "function", "function": {"name": %q, "arguments": "{}"}}]}`, i, name),
			fmt.Sprintf(`{"role": "tool", "tool_call_id": "c%d", "content": "x"}`, i+i%11/10)) // every eleventh answers the next call
	}
	doc := chatDoc(t, `{"messages": [`+strings.Join(msgs, ",")+`]}`)
	want, got, cache := shortcutsHits(rules, doc.Value)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hits (-without +with the shared answers):\n%s", diff)
	}
	share := rules[0].rel.lets[0].share
	if share < 0 || share != rules[1].rel.lets[0].share {
		t.Fatalf("the calls lets share %d and %d: want one query", share, rules[1].rel.lets[0].share)
	}
	row := cache.shared[share]
	if len(row.counts) < 5999 || row.counts[5999].n1 == 0 {
		t.Errorf("the last result's answer (message 5999 of 6000) is not kept: %d answers", len(row.counts))
	}
	if len(want) == 0 {
		t.Errorf("%d hits: want the unanswered and the g results", len(want))
	}
}
