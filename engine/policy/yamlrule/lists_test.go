package yamlrule

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// TestNarrow checks the messages a walk of messages[*].calls[*] visits: those
// whose calls is a non-empty list, within the role's messages when it has
// them; and that other walks are left alone.
func TestNarrow(t *testing.T) {
	v, err := astjson.Decode([]byte(`{"messages":[{"role":"a","calls":[1]},{"role":"b"},{"role":"a","calls":[]},"not an object",{"role":"a","calls":{"x":1}},{"role":"b","calls":[1,2]},{"role":"a","calls":[3]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	doc := v.(ast.Object)
	var c Cache
	c.Reset(doc)
	calls, err := parseGiven("messages[*].calls[*]")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := parseGiven("messages[*].raw.calls[*]")
	msgs, _ := parseGiven("messages[*]")
	got := map[string][]int{
		"all":         c.narrow(calls, nil),
		"role a":      c.narrow(calls, []int{0, 2, 4, 6}),
		"role c":      c.narrow(calls, []int{}),
		"raw":         c.narrow(raw, []int{0, 1}),
		"messages":    c.narrow(msgs, nil),
		"all, again":  c.narrow(calls, nil),
		"role b":      c.narrow(calls, []int{1, 5}),
		"role a, too": c.narrow(calls, []int{0, 2, 4, 6}),
	}
	want := map[string][]int{
		"all": {0, 5, 6}, "role a": {0, 6}, "role c": {}, "raw": {0, 1}, "messages": nil,
		"all, again": {0, 5, 6}, "role b": {5}, "role a, too": {0, 6},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("visited (-want +got):\n%s", d)
	}
	was := SetShortcuts(false)
	defer SetShortcuts(was)
	if got := c.narrow(calls, []int{1}); !cmp.Equal(got, []int{1}) {
		t.Errorf("without the shortcuts: %v, want the role's messages", got)
	}
}
