package convert

import (
	"github.com/chatlint/chatlint/engine/jsonv"
)

// Record is one squashed session: {"messages": [...], "tools": [...]}.
type Record struct {
	Messages []*jsonv.Object
	Tools    []*jsonv.Object
}

// Value returns the record as a JSON value.
func (r *Record) Value() *jsonv.Object {
	msgs := make([]jsonv.Value, len(r.Messages))
	for i, m := range r.Messages {
		msgs[i] = m
	}
	tools := make([]jsonv.Value, len(r.Tools))
	for i, t := range r.Tools {
		tools[i] = t
	}
	return &jsonv.Object{Members: []jsonv.Member{{Key: "messages", Value: msgs}, {Key: "tools", Value: tools}}}
}

// squash builds the record of a validated session. Every request carries the
// whole history, so the last kept entry is the conversation: its request
// messages plus the reply it got. Tools come from every kept entry, the
// definition itself (the `function` object), first definition of a name wins.
func squash(kept []*Entry) *Record {
	last := kept[len(kept)-1]
	r := &Record{}
	for _, m := range last.Messages {
		r.Messages = append(r.Messages, systemRole(m))
	}
	if reply := last.Reply(); reply != nil {
		r.Messages = append(r.Messages, systemRole(reply))
	}
	seen := map[string]bool{}
	for _, e := range kept {
		for _, t := range e.Tools {
			fn := get(t, "function").(*jsonv.Object)
			if name, ok := toolName(t, fn); ok && name != "" {
				if seen[name] {
					continue
				}
				seen[name] = true
			}
			r.Tools = append(r.Tools, fn)
		}
	}
	return r
}

// toolName is function.name, else the tool's own name, when a string.
func toolName(tool, fn *jsonv.Object) (string, bool) {
	if n, ok := get(fn, "name").(string); ok {
		return n, true
	}
	n, ok := get(tool, "name").(string)
	return n, ok
}

// systemRole returns the message with role developer renamed system (a copy;
// entries are shared), or the message itself.
func systemRole(m *jsonv.Object) *jsonv.Object {
	if get(m, "role") != "developer" {
		return m
	}
	c := &jsonv.Object{Members: append([]jsonv.Member(nil), m.Members...)}
	c.Set("role", "system")
	return c
}

// contentText is the text of a content value as the reference reads it: a
// string as is, the `text` of the parts of type "text" of a list joined with
// nothing; ok is false for anything else (null, missing).
func contentText(c jsonv.Value) (string, bool) {
	switch t := c.(type) {
	case string:
		return t, true
	case []jsonv.Value:
		var b []byte
		for _, p := range t {
			po, _ := p.(*jsonv.Object)
			if get(po, "type") != "text" {
				continue
			}
			if s, ok := get(po, "text").(string); ok {
				b = append(b, s...)
			}
		}
		return string(b), true
	}
	return "", false
}
