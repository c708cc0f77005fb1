package stats

import "github.com/chatlint/chatlint/engine/document"

// sessionFields are the members of a session's document stats reads: its
// messages (role, text, tool_call_id, tool calls, and of their raw the
// name, the weight and the content parts), tools and raw; not its entries
// nor its lookup. Built with them, a Claude Code or Codex session's lines
// are decoded as views, without the members of each line no builder and no
// reader here looks at (a tool's result as the UI showed it, token counts,
// settings), as check decodes them: whole, a session of 100,000 lines was
// as many OPA objects of each line and its message, and its entries beside.
var sessionFields = document.NewFields(func(path ...string) bool {
	switch {
	case path[0] == "entries" || path[0] == "lookup":
		return false
	case len(path) == 4 && path[0] == "messages" && path[2] == "raw":
		switch path[3] {
		case "name", "weight", "content", "parts":
			return true
		}
		return false
	}
	return true
})

// docOptions are the document options a unit of format f is read with:
// with sessionFields for a session whose adapter decodes its lines as they
// say (Adapter.Reads: Claude Code, Codex). Any other is built whole, as it
// was: a record of a per-record format is one line, and a proxy-log
// session pruned would be built a second time whole for its messages.
func docOptions(opts document.Options, f document.Format) document.Options {
	pruned := opts
	pruned.Fields = sessionFields
	if f.PerFile() && document.Projection(f, pruned) != nil {
		return pruned
	}
	return opts
}
