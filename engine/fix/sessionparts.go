package fix

import (
	"slices"

	"github.com/chatlint/chatlint/engine/jsonv"
)

// In a session each message is a line, except the tool results an
// Anthropic-style user message holds as tool_result blocks: each block is a
// message of its own in the document, with the block's pointer inside its
// line. Dropping such a message drops the block, not the line, so a real
// result sharing the line with an orphan stays where it is. Only when every
// element of the list goes is the line itself dropped, as it was.

// partDrops finds, for a session, the drop_message operations whose message
// is an element of a list inside its line. It returns the lists to shrink,
// by record index and list pointer, and marks in wholeLine the operations
// that empty their list: those drop the line instead.
func (a *applier) partDrops() (map[int]map[string][]int, map[*op]bool, error) {
	if !a.messageLines() {
		return nil, nil, nil // entry layouts (Claude Code, Codex) drop blocks through collectEntryRejects
	}
	type list struct {
		rec int
		ptr string
	}
	byList := map[list][]*op{}
	var order []list
	for _, o := range a.ops {
		if o.Op != OpDropMessage {
			continue
		}
		arr, _, ok := splitIndex(a.ms[o.msg].path)
		if !ok {
			continue // the message is the line's own
		}
		rec, err := a.line(a.ms[o.msg].line)
		if err != nil {
			return nil, nil, err
		}
		k := list{rec, arr}
		if byList[k] == nil {
			order = append(order, k)
		}
		byList[k] = append(byList[k], o)
	}
	if len(byList) == 0 {
		return nil, nil, nil
	}
	parts := map[int]map[string][]int{}
	whole := map[*op]bool{}
	for _, k := range order {
		ops := byList[k]
		root, err := a.value(k.rec)
		if err != nil {
			return nil, nil, err
		}
		v, err := lookup(root, k.ptr)
		if err != nil {
			return nil, nil, err
		}
		arr, _ := v.([]jsonv.Value)
		var idx []int
		for _, o := range ops {
			_, i, _ := splitIndex(a.ms[o.msg].path)
			if !slices.Contains(idx, i) {
				idx = append(idx, i)
			}
		}
		if len(idx) >= len(arr) {
			for _, o := range ops {
				whole[o] = true
			}
			continue
		}
		if parts[k.rec] == nil {
			parts[k.rec] = map[string][]int{}
		}
		parts[k.rec][k.ptr] = idx
	}
	return parts, whole, nil
}

// dropParts removes the elements partDrops found from their lists.
func (a *applier) dropParts(parts map[int]map[string][]int) error {
	for rec, lists := range parts {
		for ptr, idx := range lists {
			v, err := lookup(a.vals[rec], ptr)
			if err != nil {
				return err
			}
			arr, _ := v.([]jsonv.Value)
			var kept []jsonv.Value
			for i, x := range arr {
				if !slices.Contains(idx, i) {
					kept = append(kept, x)
				}
			}
			if err := set(a.vals[rec], ptr, kept); err != nil {
				return err
			}
			a.dirty[rec] = true
		}
	}
	return nil
}
