package yamlrule

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestJoinedRuleLetsKept: the lets of a rule another rule joins (join:
// rule:ID) are kept per element for the document, so the partner set's
// build and the rule's own evaluation compute each once; a grouped rule,
// whose lets may read $group, keeps none. The findings are those of the
// evaluation without the shortcuts.
func TestJoinedRuleLetsKept(t *testing.T) {
	src := `rules:
  - id: flagged
    severity: error
    description: d
    given: messages[*]
    where:
      role: tool
    let:
      reason: {cases: [{when: {text: {contains: fail}}, text: failed}]}
      retried:
        join: rule:flagged
        where: {$reason: absent}
        on: {turn: turn}
        differ: {tool_call_id: tool_call_id}
    cases:
      - when: {$reason: present, $retried.count: {greater_than: 0}}
        severity: warning
        message: '{{index}} {{$reason}}, retried'
      - when: {$reason: present}
        message: '{{index}} {{$reason}}'
  - id: missing
    severity: error
    description: d
    given: messages[*].tool_calls[*]
    let:
      ok: {join: rule:flagged, where: {$reason: absent}, on: {$message.index: turn, id: tool_call_id}}
    where:
      $ok.count: 0
    cases:
      - message: 'call {{id}} has no good result'
  - id: grouped
    severity: error
    description: d
    given: messages[*]
    where:
      role: tool
    group: [tool_call_id]
    let:
      n: {join: rule:missing}
    assert:
      $group.rank: 0
    message: 'again {{index}}'
`
	rules := compileRules(t, src)
	flagged, missing, grouped := rules[0], rules[1], rules[2]
	if !flagged.rel.rows || !missing.rel.rows {
		t.Errorf("rows kept: flagged %v, missing %v; want both (another rule joins each)", flagged.rel.rows, missing.rel.rows)
	}
	if grouped.rel.rows {
		t.Errorf("the grouped rule keeps its lets per element; its lets may read $group")
	}
	doc := chatDoc(t, `{"messages": [{"role": "user", "content": "hi"},
		{"role": "assistant", "tool_calls": [{"id": "1", "type": "function", "function": {"name": "f", "arguments": "{}"}}, {"id": "2", "type": "function", "function": {"name": "f", "arguments": "{}"}}, {"id": "3", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
		{"role": "tool", "tool_call_id": "1", "content": "fail"},
		{"role": "tool", "tool_call_id": "2", "content": "fine"},
		{"role": "tool", "tool_call_id": "1", "content": "fine"},
		{"role": "assistant", "tool_calls": [{"id": "4", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
		{"role": "tool", "tool_call_id": "4", "content": "fail"}]}`)
	want, got, cache := shortcutsHits(rules, doc.Value)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hits (-without +with the kept lets):\n%s", diff)
	}
	if len(want) != 5 {
		t.Errorf("%d hits, want 5: %v", len(want), want)
	}
	lr := cache.rows[flagged]
	if lr == nil || lr.gen != cache.gen+1 || lr.n != 4 {
		t.Fatalf("flagged's rows: %+v, want the 4 results of this document", lr)
	}
	lets := len(flagged.rel.lets)
	for i := range lr.n {
		if m := lr.memo[i*lets]; m.gen != 1 {
			t.Errorf("result %d: $reason not kept", i)
		}
	}
	if got := len(cache.rowsUsed); got != 2 {
		t.Errorf("%d rules kept lets in this document, want 2", got)
	}
	cache.Reset(nil)
	for _, m := range lr.memo {
		if m.value != nil || m.first != nil || m.last != nil {
			t.Fatal("a let kept past its document")
		}
	}
}
