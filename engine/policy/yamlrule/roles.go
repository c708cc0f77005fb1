package yamlrule

import "github.com/open-policy-agent/opa/v1/ast"

// The document's role index: its messages grouped by their role string,
// built once per document (loadRoles). A role condition (rolesPassing) is
// then tested once per distinct role, and a rule of one role (messagesOf)
// reads that role's messages as they are, instead of every filter and
// role scanning the messages again.

// maxRoleClasses bounds the distinct role strings the index groups; a
// message of another role, or whose role is not a string, is oddRole and
// tested on its own.
const maxRoleClasses = 16

const oddRole = 0xff

// roleClass is one distinct role string of the document and its messages.
type roleClass struct {
	role string
	val  ast.Value // the role as the document holds it
	ix   []int     // the messages of the role, ascending
}

// classify puts message i, of role value v, in its class.
func (c *Cache) classify(i int, v ast.Value) {
	s, ok := v.(ast.String)
	if !ok {
		c.roleClass = append(c.roleClass, oddRole)
		c.oddRoles = true
		return
	}
	for k := range c.classes {
		if cl := &c.classes[k]; cl.role == string(s) {
			cl.ix = append(cl.ix, i)
			c.roleClass = append(c.roleClass, uint8(k))
			return
		}
	}
	if len(c.classes) == maxRoleClasses {
		c.roleClass = append(c.roleClass, oddRole)
		c.oddRoles = true
		return
	}
	if len(c.classes) < cap(c.classes) {
		// keep the index buffer of the class this slot held before
		c.classes = c.classes[:len(c.classes)+1]
		cl := &c.classes[len(c.classes)-1]
		cl.role, cl.val, cl.ix = string(s), v, append(cl.ix[:0], i)
	} else {
		c.classes = append(c.classes, roleClass{role: string(s), val: v, ix: []int{i}})
	}
	c.roleClass = append(c.roleClass, uint8(len(c.classes)-1))
}

// resetRoles empties the index for the next document, keeping its buffers.
func (c *Cache) resetRoles() {
	for k := range c.classes {
		c.classes[k].val = nil // drop references to the document
	}
	c.classes, c.roleClass, c.oddRoles = c.classes[:0], c.roleClass[:0], false
}

// rolesPassing returns the indexes of the document's messages whose role
// passes f, evaluated once per distinct role value.
func (c *Cache) rolesPassing(f *roleFilter) []int {
	for f.id >= len(c.filters) {
		c.filters = append(c.filters, roleIndex{})
	}
	ri := &c.filters[f.id]
	if ri.gen == c.gen && ri.ix != nil {
		return ri.ix
	}
	c.loadRoles()
	ri.gen = c.gen
	var sc scope
	var pass uint32 // bit k: the role of class k passes
	n, one := 0, -1
	for k := range c.classes {
		if f.cond.passes(c.classes[k].val, nil, &sc) {
			pass |= 1 << k
			n++
			one = k
		}
	}
	switch {
	case !c.oddRoles && n == 0:
		ri.ix = []int{} // never nil: nil means every message
	case !c.oddRoles && n == 1:
		ri.ix = c.classes[one].ix // the index's own: nobody writes to it
	default:
		ri.buf = ri.buf[:0]
		for i, k := range c.roleClass {
			ok := false
			if k == oddRole {
				ok = f.cond.passes(c.roleVals[i], nil, &sc)
			} else {
				ok = pass&(1<<k) != 0
			}
			if ok {
				ri.buf = append(ri.buf, i)
			}
		}
		if ri.buf == nil {
			ri.buf = []int{}
		}
		ri.ix = ri.buf
	}
	return ri.ix
}
