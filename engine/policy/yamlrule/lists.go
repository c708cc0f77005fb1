package yamlrule

// A walk of messages[*].tool_calls[*] (or any messages[*].X[*]) visits
// every message to find the few with calls; a document's rules and partner
// sets walk the calls a dozen times. The messages whose X is a non-empty
// list are found once per document and member, and the walks visit only
// them (within the messages of their role, when they have a role filter):
// a message without the list gives no element, so skipping it changes
// nothing.

import "github.com/open-policy-agent/opa/v1/ast"

// narrow returns the top-level messages a walk of given visits: only (nil:
// every message) without those that cannot give an element.
func (c *Cache) narrow(given []step, only []int) []int {
	if !yamlShortcuts || len(given) < 2 || given[0].kind != stepMessages || !given[0].each || !given[1].each {
		return only
	}
	with := c.messagesWithList(&given[1])
	if only == nil {
		return with
	}
	buf := c.intBuf()
	for i, j := 0, 0; i < len(only) && j < len(with); { // both ascending
		switch {
		case only[i] == with[j]:
			buf = append(buf, only[i])
			i++
			j++
		case only[i] < with[j]:
			i++
		default:
			j++
		}
	}
	c.ints[len(c.ints)-1] = buf // keep its capacity for the next document
	return buf
}

// intBuf returns an empty, non-nil buffer valid for the current document.
func (c *Cache) intBuf() []int {
	if c.nints == len(c.ints) {
		c.ints = append(c.ints, make([]int, 0, 8))
	}
	c.nints++
	c.ints[c.nints-1] = c.ints[c.nints-1][:0]
	return c.ints[c.nints-1]
}

// messagesWithList returns the indexes of the messages whose member st is
// a non-empty list.
func (c *Cache) messagesWithList(st *step) []int {
	for st.slot >= len(c.lists) {
		c.lists = append(c.lists, roleIndex{})
	}
	li := &c.lists[st.slot]
	if li.gen == c.gen && li.ix != nil {
		return li.ix
	}
	li.gen, li.ix = c.gen, li.ix[:0]
	if t := c.doc.Get(keyMessages); t != nil {
		if arr, ok := t.Value.(*ast.Array); ok {
			for i := 0; i < arr.Len(); i++ {
				o, ok := arr.Elem(i).Value.(ast.Object)
				if !ok {
					continue
				}
				if m := c.members.get(o, i+1, st.key, st.slot); m != nil {
					if l, ok := m.Value.(*ast.Array); ok && l.Len() > 0 {
						li.ix = append(li.ix, i)
					}
				}
			}
		}
	}
	if li.ix == nil {
		li.ix = []int{} // never nil: nil means every message
	}
	return li.ix
}
