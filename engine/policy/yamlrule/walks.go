package yamlrule

// One walk of a list per document for every rule and partner set that
// walks it with the same conditions. The block rules and the partner sets
// their lets join walk the same elements again and again: the calls of the
// assistant messages with a non-empty id and name are the elements of four
// rules and the partners of three joins. A walk names its elements by the
// given path and the conditions on the element alone it checks on them,
// taken as a set: conditions that read no let nor another path give the
// same answer in any order, and a narrowing of the walk (the messages of a
// role, those whose role passes a condition) only skips the elements a
// condition of the set would refuse. The first rule or set to ask walks
// and keeps the elements for the document; the others read them.

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

// walkSpec is a walk and the conditions checked on its elements.
type walkSpec struct {
	id     int // walkID(sig)
	given  []step
	role   string      // the walk visits only the messages of this role ("": all) ...
	filter *roleFilter // ... or those whose role passes this condition
	conds  []check     // checked on each element, none reading a let
}

// newWalk returns the walk of given narrowed by role or filter, whose
// elements pass conds; set holds the conditions that name its elements
// (conds with the condition of the filter, if any).
func newWalk(given []step, role string, filter *roleFilter, conds, set []check) *walkSpec {
	var g []string
	for _, s := range given {
		g = append(g, s.field)
	}
	sigs := make([]string, len(set))
	for i, c := range set {
		sigs[i] = c.text + "=" + fmt.Sprint(c.cond.descs())
	}
	slices.Sort(sigs)
	sigs = slices.Compact(sigs)
	sig := strings.Join(g, ".") + "|" + strings.Join(sigs, "\x00")
	return &walkSpec{id: walkID(sig), given: given, role: role, filter: filter, conds: conds}
}

// allMovable reports whether every condition of cs reads its value alone.
func allMovable(cs []check) bool {
	for i := range cs {
		if !movable(&cs[i]) {
			return false
		}
	}
	return true
}

// movablePrefix returns how many conditions at the start of cs read their
// value alone.
func movablePrefix(cs []check) int {
	for i := range cs {
		if !movable(&cs[i]) {
			return i
		}
	}
	return len(cs)
}

// sharedWalk returns a rule's walk and the conditions of its where left to
// check on the walk's elements, or nil when the rule's narrowing of the
// walk is not implied by the conditions the walk checks.
func sharedWalk(given []step, role string, h *hoisted) (*walkSpec, []check) {
	if h.filter != nil {
		n := movablePrefix(h.where.rest)
		conds := h.where.rest[:n:n]
		return newWalk(given, "", h.filter, conds, append([]check{h.filter.of}, conds...)), h.where.rest[n:]
	}
	n := movablePrefix(h.plain)
	conds := h.plain[:n:n]
	if role != "" && roleOf(given, conds) != role {
		return nil, nil
	}
	return newWalk(given, role, nil, conds, conds), h.plain[n:]
}

// walkList is the elements of one walk in the current document.
type walkList struct {
	gen int // Cache.gen+1 of the document they are of
	els []elem
}

// walked returns the elements of w in the document, walking it the first
// time it is asked for. The elements stay valid until the cache is reset;
// partner sets hold them as they are.
func (c *Cache) walked(w *walkSpec) []elem {
	for w.id >= len(c.walks) {
		c.walks = append(c.walks, nil)
	}
	wl := c.walks[w.id]
	if wl == nil {
		wl = &walkList{}
		c.walks[w.id] = wl
	}
	if wl.gen == c.gen+1 {
		return wl.els
	}
	wl.gen = c.gen + 1
	c.walksUsed = append(c.walksUsed, w.id)
	var only []int
	if w.filter != nil {
		only = c.narrow(w.given, c.rolesPassing(w.filter))
	} else {
		only = c.narrow(w.given, c.only(w.role))
	}
	sc := newScope(c.doc)
	sc.mem = &c.members
	els := wl.els[:0]
	walkSteps(w.given, c.doc, w.given, sc, only, func(v ast.Value, el scope) {
		if allHold(w.conds, v, &el) {
			els = append(els, elemOf(v, &el))
		}
	})
	wl.els = els
	return els
}

// resetWalks drops the elements of the document's walks (keeping their
// memory for the next).
func (c *Cache) resetWalks() {
	for _, id := range c.walksUsed {
		wl := c.walks[id]
		clear(wl.els)
		wl.els = wl.els[:0]
	}
	c.walksUsed = c.walksUsed[:0]
}

// walkIDs numbers the distinct walks of every compiled rule.
var walkIDs = struct {
	sync.Mutex
	m map[string]int
}{m: map[string]int{}}

func walkID(sig string) int {
	walkIDs.Lock()
	defer walkIDs.Unlock()
	id, ok := walkIDs.m[sig]
	if !ok {
		id = len(walkIDs.m)
		walkIDs.m[sig] = id
	}
	return id
}
