package document

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestLookupLeavesOutUnread: a document pruned to rules that read only some
// of the lookup's members holds those members, each equal to the whole
// document's, and none of the others: with each member read alone, each
// member left out alone, and the members the openai profile's gate leaves
// out (the ids', names', lists', tools' and contents' indexes).
func TestLookupLeavesOutUnread(t *testing.T) {
	recs := []string{
		`{"messages": [{"role": "user", "content": "x"},
			{"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "f"}}, {"id": "b", "function": {"name": "f"}}]},
			{"role": "tool", "tool_call_id": "b", "content": "1"}, {"role": "tool", "tool_call_id": "a", "content": "2"},
			{"role": "assistant", "content": "done", "weight": 1}],
			"tools": [{"type": "function", "function": {"name": "f"}}]}`,
		`{"messages": [{"role": "tool", "tool_call_id": "a", "content": "early"},
			{"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "f"}}]},
			{"role": "assistant", "content": null},
			{"role": "tool", "tool_call_id": "a", "content": "late"}, {"role": "tool", "tool_call_id": "z", "content": "?"},
			{"role": "tool", "content": "no id"}, {"role": "tool", "tool_call_id": null, "content": [{"type": "text", "text": "x"}]}]}`,
		`{"messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]}`,
		`{"messages": []}`,
		`{"prompt": "p", "completion": "c"}`,
	}
	all := lookupSet(1<<len(lookupMembers) - 1)
	sets := []lookupSet{0, lkCallIDs | lkCallNames | lkCallLists | lkToolNames | lkOddText}
	for i := range lookupMembers {
		sets = append(sets, all&^(1<<i), 1<<i)
	}
	for _, rec := range recs {
		whole := NewBuilder(Chat, "f.jsonl", Options{}).Add(1, obj(t, rec))
		want := whole.Value.Get(keyLookup).Value.(ast.Object)
		for _, unread := range sets {
			f := NewFields(func(path ...string) bool {
				if len(path) == 2 && path[0] == "lookup" {
					for i, k := range lookupMembers {
						if string(k.Value.(ast.String)) == path[1] {
							return unread&(1<<i) == 0
						}
					}
				}
				return true
			})
			if f.lookupUnread != unread {
				t.Fatalf("NewFields found unread %011b, want %011b", f.lookupUnread, unread)
			}
			d := NewBuilder(Chat, "f.jsonl", Options{Fields: f}).Add(1, obj(t, rec))
			got := d.Value.Get(keyLookup).Value.(ast.Object)
			for i, k := range lookupMembers {
				g, w := got.Get(k), want.Get(k)
				switch {
				case unread&(1<<i) != 0 && g != nil:
					t.Errorf("%s, unread %011b: %v is there (%v)", rec, unread, k, g)
				case unread&(1<<i) == 0 && (g == nil || !g.Equal(w)):
					t.Errorf("%s, unread %011b: %v is %v, the whole document's %v", rec, unread, k, g, w)
				}
			}
		}
	}
}
