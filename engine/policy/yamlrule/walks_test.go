package yamlrule

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
)

// TestSharedWalks checks that rules and joins walking the same list with the
// same conditions on the element alone (in any order, a role condition
// taken out as the walk's filter included) share one walk per document, and
// that the rules' joins whose partners depend on the element alone share
// their counts; and that the findings are those of the walks without the
// shortcuts.
func TestSharedWalks(t *testing.T) {
	src := `valid: &valid
  $message.role: assistant
  id: {not_empty: true}
rules:
  - id: a
    severity: error
    description: d
    given: messages[*].tool_calls[*]
    let:
      answers: {join: 'messages[*]', where: {role: tool}, on: {id: tool_call_id}}
    where:
      <<: *valid
      $answers.count: 0
    cases:
      - message: 'a {{id}}'
  - id: b
    severity: error
    description: d
    given: messages[*].tool_calls[*]
    where:
      id: {not_empty: true}
      $message.role: assistant
    group: [id]
    assert:
      $group.rank: 0
    message: 'b {{id}}'
  - id: c
    severity: error
    description: d
    given: messages[*]
    let:
      calls: {join: 'messages[*].tool_calls[*]', where: *valid, on: {tool_call_id: id}}
      named: {join: 'messages[*].tool_calls[*]', where: *valid, on: {$calls.first.name: name}}
    where:
      role: tool
      $calls.count: 0
    cases:
      - message: 'c {{index}}'
  - id: d
    severity: error
    description: d
    given: messages[*]
    let:
      calls: {join: 'messages[*].tool_calls[*]', where: *valid, on: {tool_call_id: id}}
    where:
      role: tool
      $calls.count: {greater_than: 1}
    cases:
      - message: 'd {{index}}'
  - id: e
    severity: error
    description: d
    given: messages[*].tool_calls[*]
    where:
      id: present
    group: [id]
    assert:
      $group.rank: 0
    message: 'e {{id}}'
`
	rules := compileRules(t, src)
	a, b, c, d, e := rules[0], rules[1], rules[2], rules[3], rules[4]
	walk := a.hoisted.walk.id
	if b.hoisted.walk.id != walk || c.rel.lets[0].join.walk.id != walk {
		t.Errorf("walks %d, %d, %d: want one walk of the valid calls", walk, b.hoisted.walk.id, c.rel.lets[0].join.walk.id)
	}
	if e.hoisted.walk.id == walk {
		t.Errorf("rule e checks other conditions but shares the walk of the valid calls")
	}
	if c.rel.lets[0].share < 0 || c.rel.lets[0].share != d.rel.lets[0].share {
		t.Errorf("the calls lets of c and d share %d and %d: want one query", c.rel.lets[0].share, d.rel.lets[0].share)
	}
	if c.rel.lets[1].share >= 0 {
		t.Errorf("a join on a let's value is shared (%d)", c.rel.lets[1].share)
	}
	if a.rel.lets[0].share >= 0 {
		t.Errorf("a join of the calls' rule is shared (%d): only a list of the document's own has positions", a.rel.lets[0].share)
	}

	doc := chatDoc(t, `{"messages": [{"role": "user", "content": "hi"},
		{"role": "assistant", "tool_calls": [{"id": "1", "type": "function", "function": {"name": "f", "arguments": "{}"}}, {"id": "1", "type": "function", "function": {"name": "f", "arguments": "{}"}}, {"id": "", "type": "function", "function": {"name": "g", "arguments": "{}"}}]},
		{"role": "tool", "tool_call_id": "1", "content": "x"},
		{"role": "tool", "tool_call_id": "2", "content": "y"},
		{"role": "assistant", "tool_calls": [{"id": "3", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}]}`)
	want, got, cache := shortcutsHits(rules, doc.Value)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hits (-without +with the shared walks):\n%s", diff)
	}
	if len(want) != 5 {
		t.Errorf("%d hits, want 5: %v", len(want), want)
	}
	if n := len(cache.walks[walk].els); n != 3 {
		t.Errorf("the walk of the valid calls holds %d calls, want 3", n)
	}
}

// shortcutsHits evaluates rules on doc without the shortcuts, and with them
// on a cache that has seen the document once before, as a worker's cache
// has seen another: what the shortcuts keep per document must not leak into
// the next. It returns both hits and that cache.
func shortcutsHits(rules []*Rule, doc ast.Object) (want, got []Hit, cache *Cache) {
	eval := func(c *Cache) []Hit {
		var hits []Hit
		c.Reset(doc)
		for _, r := range rules {
			hits = r.EvalIn(doc, c, hits)
		}
		return hits
	}
	was := SetShortcuts(false)
	defer SetShortcuts(was)
	want = eval(&Cache{})
	SetShortcuts(true)
	cache = &Cache{}
	eval(cache)
	return want, eval(cache), cache
}
