package document

import (
	"strconv"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Target names one element of a normalized document by its JSON Pointer:
// "" for the document itself, "/messages/3", "/messages/3/tool_calls/1",
// "/tools/2" or "/entries/5". Findings name what they are about this way, so
// one type carries a rule's answer to "where" from evaluation to the report.
type Target string

// TargetOf translates the index keys rules write (message_index,
// tool_call_index, tool_index, entry_index; negative when not named) into a
// Target, the most specific first: a tool call of a message, a message, a
// tool, an entry.
func TargetOf(message, toolCall, tool, entry int) Target {
	switch {
	case message >= 0 && toolCall >= 0:
		return Target("/messages/" + strconv.Itoa(message) + "/tool_calls/" + strconv.Itoa(toolCall))
	case message >= 0:
		return Target("/messages/" + strconv.Itoa(message))
	case tool >= 0:
		return Target("/tools/" + strconv.Itoa(tool))
	case entry >= 0:
		return Target("/entries/" + strconv.Itoa(entry))
	}
	return ""
}

// Message returns the index of the message the target is or lies in.
func (t Target) Message() (int, bool) { return t.index("messages") }

// ToolCall returns the index of the tool call the target names, within its
// message.
func (t Target) ToolCall() (int, bool) { return t.index("tool_calls") }

// Tool returns the index of the tool definition the target names.
func (t Target) Tool() (int, bool) { return t.index("tools") }

// Entry returns the index of the session entry the target names.
func (t Target) Entry() (int, bool) { return t.index("entries") }

// index returns the number after the segment named collection.
func (t Target) index(collection string) (int, bool) {
	segs := strings.Split(string(t), "/")
	for i := 1; i+1 < len(segs); i += 2 {
		if segs[i] == collection {
			n, err := strconv.Atoi(segs[i+1])
			return n, err == nil && n >= 0
		}
	}
	return 0, false
}

// Valid reports whether t has the shape of a target (not whether the
// document has that element: see Locate).
func (t Target) Valid() bool {
	if t == "" {
		return true
	}
	segs := strings.Split(string(t), "/")
	if segs[0] != "" || len(segs)%2 != 1 {
		return false
	}
	for i := 1; i < len(segs); i += 2 {
		if n, err := strconv.Atoi(segs[i+1]); err != nil || n < 0 {
			return false
		}
		switch {
		case i == 1 && (segs[i] == "messages" || segs[i] == "tools" || segs[i] == "entries"):
		case i == 3 && segs[1] == "messages" && segs[i] == "tool_calls":
		default:
			return false
		}
	}
	return true
}

// Locate returns the source line and the JSON Pointer into that line's raw
// JSON of the element t names, walking down from the document: the message
// gives the line, its tool call the finer pointer. ok is false when the
// document has no such element; line and path are then those of the deepest
// element that exists (the document's own line and "" at worst).
func (d *Document) Locate(t Target) (line int, path string, ok bool) {
	line = d.Line
	if t == "" {
		return line, "", true
	}
	if !t.Valid() {
		return line, "", false
	}
	segs := strings.Split(string(t)[1:], "/")
	i, _ := strconv.Atoi(segs[1])
	switch segs[0] {
	case "messages":
		m := elem(d.located(KeyMessages), i)
		if m == nil {
			return line, "", false
		}
		line, path = orLine(intField(m, KeyLine), d.Line), stringField(m, KeyPath)
		if len(segs) == 2 {
			return line, path, true
		}
		j, _ := strconv.Atoi(segs[3])
		c := elem(arrayField(m, KeyToolCalls), j)
		if c == nil {
			return line, path, false
		}
		// A call on a line of its own (a message written over several
		// lines) names that line.
		return orLine(intField(c, KeyLine), line), stringField(c, KeyPath), true
	case "tools":
		tl := elem(d.located(KeyTools), i)
		if tl == nil {
			return line, "", false
		}
		if i < len(d.toolLines) {
			line = d.toolLines[i]
		}
		return line, stringField(tl, KeyPath), true
	default: // entries
		e := elem(d.located(keyEntries), i)
		if e == nil {
			return line, "", false
		}
		return orLine(intField(e, KeyLine), d.Line), "", true
	}
}

func orLine(line, def int) int {
	if line > 0 {
		return line
	}
	return def
}

func elem(a *ast.Array, i int) ast.Object {
	if a == nil || i < 0 || i >= a.Len() {
		return nil
	}
	o, _ := a.Elem(i).Value.(ast.Object)
	return o
}
