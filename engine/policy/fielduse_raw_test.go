package policy

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// rawPaths lists what t reads: each leaf, "(shape)" when only its kind and
// emptiness are, "everything" when the root is read whole.
func rawPaths(t *readTree, prefix string, out *[]string) {
	switch {
	case t.all && prefix == "":
		*out = append(*out, "everything")
	case t.all:
		*out = append(*out, prefix)
	case t.same:
		*out = append(*out, prefix+" (same)")
	case len(t.kids) == 0 && prefix != "":
		*out = append(*out, prefix+" (shape)")
	}
	for k, kid := range t.kids {
		p := k
		if prefix != "" {
			p = prefix + "." + k
		}
		rawPaths(kid, p, out)
	}
}

// TestYAMLRawReads: what a YAML rule reads through raw. The operators
// type, present (absent), optional, not_empty and truthy, alone, together
// or under not, and a message's {{type path}}, read a value's shape;
// anything else reads the value, and a path the analysis cannot place reads
// everything.
func TestYAMLRawReads(t *testing.T) {
	rule := func(given, body string) string {
		return "rules:\n  - id: r\n    given: " + given + "\n" + body + "\n    message: m\n"
	}
	cases := []struct {
		name, yaml string
		want       []string
	}{
		{"type", rule("document", "    where: {raw: {type: object}}"), []string{"raw (shape)"}},
		{"type, block style", rule("document", "    where:\n      raw:\n        type: [object, array]"), []string{"raw (shape)"}},
		{"present", rule("document", "    where: {raw.tools: {present: true}}"), []string{"raw.tools (shape)"}},
		{"absent", rule("document", "    where: {raw.tools: absent}"), []string{"raw.tools (shape)"}},
		{"present, bare", rule("document", "    where: {raw.tools: present}"), []string{"raw.tools (shape)"}},
		{"optional", rule("document", "    where: {raw.tools: {optional: true, type: 'null'}}"), []string{"raw.tools (shape)"}},
		{"not_empty", rule("document", "    assert: {raw.messages: {type: array, not_empty: true}}"), []string{"raw.messages (shape)"}},
		{"truthy", rule("messages[*]", "    where: {raw.is_error: {truthy: true}}"), []string{"messages.*.raw.is_error (shape)"}},
		{"not of shape operators", rule("messages[*]", "    where: {raw.tool_calls: {present: true, not: {type: ['null', array]}}}"), []string{"messages.*.raw.tool_calls (shape)"}},
		{"type in a message", rule("document", "    where: {format: chat}\n    message: 'tools is {{type raw.tools}}'"), []string{"raw.tools (shape)"}},
		{"a context's raw", rule("tools[*]", "    where: {$document.raw.params: absent, $message.raw.x: {type: string}}"), []string{"messages.*.raw.x (shape)", "raw.params (shape)"}},
		// What reads the value.
		{"equals", rule("document", "    where: {raw.tools: {equals: []}}"), []string{"raw.tools"}},
		{"a literal", rule("document", "    where: {raw.tools: []}"), []string{"raw.tools"}},
		{"shape and more", rule("document", "    where: {raw.tools: {type: string, matches: x}}"), []string{"raw.tools"}},
		{"not of a value test", rule("document", "    where: {raw.tools: {not: {json: array}}}"), []string{"raw.tools"}},
		{"printed", rule("document", "    where: {format: chat}\n    message: 'tools {{q:60 raw.tools}}'"), []string{"raw.tools"}},
		{"printed as JSON", rule("document", "    where: {format: chat}\n    message: '{{json raw.tools}} and {{type raw.x}}'"), []string{"raw.tools", "raw.x (shape)"}},
		// Compared with the same path of another element: a stand-in
		// that keeps equality serves.
		{"the previous element's", rule("messages[*]", "    where: {raw.content: {same_as: $previous.raw.content}}"), []string{"messages.*.raw.content (same)"}},
		{"the previous element's, the other way", rule("messages[*]", "    where: {$previous.raw.role: {same_as: raw.role, type: string}}"), []string{"messages.*.raw.role (same)"}},
		{"not the previous element's", rule("messages[*]", "    where: {raw.content: {not: {same_as: $previous.raw.content}}}"), []string{"messages.*.raw.content (same)"}},
		{"the same and read", rule("messages[*]", "    where: {raw.content: {same_as: $previous.raw.content}}\n    message: '{{json raw.content}}'"), []string{"messages.*.raw.content"}},
		{"another path", rule("messages[*]", "    where: {raw.content: {same_as: $previous.raw.text}}"), []string{"messages.*.raw.content", "messages.*.raw.text"}},
		{"another path, not raw", rule("messages[*]", "    where: {raw.content: {same_as: text}}"), []string{"messages.*.raw.content"}},
		{"with a value test", rule("messages[*]", "    where: {raw.content: {same_as: $previous.raw.content, equals: []}}"), []string{"messages.*.raw.content"}},
		{"a join's element", rule("messages[*]", "    let:\n      j: {join: 'messages[*]', on: {role: role}}\n    where: {raw.content: {same_as: $j.first.raw.content}}"),
			[]string{"messages.*.messages.*.raw.content (same)", "messages.*.raw.content (same)"}},
		{"a join's elements", rule("messages[*]", "    let:\n      j: {join: 'entries[*]'}\n    message: '{{$j.first.raw.code}}'"),
			[]string{"entries.*.raw.code", "messages.*.entries.*.raw.code"}},
		{"a join over raw", rule("messages[*].tool_calls[*]", "    let:\n      f: {join: 'raw.functions[*]', on: {name: name}}\n      d: {distinct: ['tools[*].name', 'raw.functions[*].name']}\n    where: {$f.count: 0}"),
			[]string{"raw.functions.*"}},
		{"an element under raw", rule("messages[*].raw.tool_calls[*]", "    where: {$: {type: object}}"), []string{"messages.*.raw.tool_calls.*"}},
		{"an alias", "x: &c {raw.a: {equals: 1}}\nrules:\n  - id: r\n    given: messages[*]\n    where: *c\n    message: m\n", []string{"everything"}},
		{"raw outside a rule", "x: raw.tools\n", []string{"everything"}},
		{"an unknown let's raw", rule("document", "    where: {$x.raw.a: present}"), []string{"everything"}},
		{"not YAML", "rules: [raw", []string{"everything"}},
		{"prose", rule("document", "    description: the raw form\n    where: {format: chat}"), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tree := &readTree{}
			yamlRaw([]byte(c.yaml), tree)
			var got []string
			rawPaths(tree, "", &got)
			sort.Strings(got)
			want := append([]string(nil), c.want...)
			sort.Strings(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("raw reads (-want +got):\n%s", diff)
			}
		})
	}
}
