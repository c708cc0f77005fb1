package document

import (
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Unmapped is a piece of an input record that an adapter reads into no
// message, call, result or tool: run metadata of an agent trajectory, a
// message's token counts, a UI's copy of a tool result. The rules do not
// need it (the document's raw and entries keep it), but a conversion that
// writes only the conversation loses it, and says so: convert --to openai
// names each in a convert-lossy note.
type Unmapped struct {
	Line int
	What string
}

// unmappedSet gathers the members an adapter leaves out, by name, once per
// document: a session with a thousand messages that each carry "tokens"
// gives one note, not a thousand.
type unmappedSet struct {
	line  int
	names []string
	seen  map[string]bool
}

// add records member name (a path such as "messages[].tokens").
func (u *unmappedSet) add(line int, name string) {
	if u.seen == nil {
		u.seen = map[string]bool{}
		u.line = line
	}
	if !u.seen[name] {
		u.seen[name] = true
		u.names = append(u.names, name)
	}
}

// addOthers records every member of o that holds something (not null, not
// an empty list or object) and whose name is not in known, under
// prefix ("" for the top level, "messages[]." for a message's members).
func (u *unmappedSet) addOthers(line int, o ast.Object, prefix string, known ...string) {
	if o == nil {
		return
	}
	o.Foreach(func(k, v *ast.Term) {
		switch x := v.Value.(type) {
		case ast.Null:
			return // a null member holds nothing to lose
		case *ast.Array:
			if x.Len() == 0 {
				return // nor an empty list
			}
		case ast.Object:
			if x.Len() == 0 {
				return // nor an empty object
			}
		}
		s, ok := k.Value.(ast.String)
		if ok && !slices.Contains(known, string(s)) {
			u.add(line, prefix+string(s))
		}
	})
}

// list returns the notes: the members, sorted, in one note.
func (u *unmappedSet) list(what string) []Unmapped {
	if len(u.names) == 0 {
		return nil
	}
	names := slices.Clone(u.names)
	slices.Sort(names)
	return []Unmapped{{Line: u.line, What: what + " " + strings.Join(names, ", ")}}
}

// isStringMember reports whether o has member k and it is a string: the
// type test detection states a required member with.
func isStringMember(o ast.Object, k *ast.Term) bool {
	t := get(o, k)
	if t == nil {
		return false
	}
	_, ok := t.Value.(ast.String)
	return ok
}
