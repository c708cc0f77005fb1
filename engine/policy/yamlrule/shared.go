package yamlrule

// Partners counted once per element for every rule that asks. The block
// rules of one file declare the same lets over the same elements: five
// rules on the tool results of a document and the partner join of a sixth
// each count the calls a result answers (answered), and two rules on the
// calls count the results that answer them (answers). A join let whose on
// and differ paths read nothing of the rule (no let, no $group) gives the
// same partners for the same element whichever rule asks, so the first
// rule's answer is kept per document and element and the others read it.

import (
	"strconv"
	"strings"
	"sync"
)

// maxSharedRows bounds the elements a shared query keeps answers for: the
// elements past it (of a very long session) are counted per rule as
// before, so that the memo stays small (16 bytes an element and query).
const maxSharedRows = 16384

// sharedRow is a shared query's answers in one document, by element.
type sharedRow struct {
	gen    int // Cache.gen+1 of the document they are of
	hi     int // counts[:hi] may hold answers (cleared for the next document)
	counts []sharedCount
}

// sharedCount is a join's partners for one element: their number plus
// one (0: not counted yet), the first and the last as positions in the
// join's partner set.
type sharedCount struct {
	n1, first, last int32
}

// shareJoins numbers the join lets of r whose partners depend on the
// element alone (letSpec.share), when r walks a list of the document
// itself, whose elements its position names. The others get -1.
func (r *Rule) shareJoins() {
	if r.rel == nil {
		return
	}
	for _, l := range r.rel.lets {
		l.share = -1
	}
	if len(r.given) != 1 || !r.given[0].each {
		return
	}
	switch r.given[0].kind {
	case stepMessages, stepTools, stepEntries:
	default:
		return
	}
	for _, l := range r.rel.lets {
		j := l.join
		if j == nil || j.rule != "" || readsRule(j.mine) || readsRule(j.differMine) {
			continue
		}
		l.share = shareID(strings.Join([]string{r.given[0].field, j.sig, pathsText(j.mine), pathsText(j.differMine), strconv.Itoa(j.order)}, "|"))
	}
}

// readsRule reports whether a path of paths starts with a let or $group.
func readsRule(paths [][]seg) bool {
	for _, p := range paths {
		if len(p) > 0 && p[0].virt {
			return true
		}
	}
	return false
}

func pathsText(paths [][]seg) string {
	out := make([]string, len(paths))
	for i, p := range paths {
		names := make([]string, len(p))
		for k, s := range p {
			names[k] = s.name
		}
		out[i] = strings.Join(names, ".")
	}
	return strings.Join(out, ",")
}

// shareIDs numbers the distinct shared queries of every compiled rule.
var shareIDs = struct {
	sync.Mutex
	m map[string]int
}{m: map[string]int{}}

func shareID(sig string) int {
	shareIDs.Lock()
	defer shareIDs.Unlock()
	id, ok := shareIDs.m[sig]
	if !ok {
		id = len(shareIDs.m)
		shareIDs.m[sig] = id
	}
	return id
}

// joined is partners(l.join) for the element env stands at, from the
// document's shared answers when l is shared.
func (env *relEnv) joined(l *letSpec) (int, *elem, *elem) {
	at := env.el.position()
	if l.share < 0 || !yamlShortcuts || at < 0 || at >= maxSharedRows {
		return env.partners(l.join)
	}
	c := env.cache
	for l.share >= len(c.shared) {
		c.shared = append(c.shared, sharedRow{})
	}
	row := &c.shared[l.share]
	if row.gen != c.gen+1 {
		clear(row.counts[:row.hi])
		row.gen, row.hi = c.gen+1, 0
	}
	if at >= len(row.counts) {
		if at < cap(row.counts) {
			row.counts = row.counts[:at+1]
		} else {
			row.counts = append(row.counts[:cap(row.counts)], make([]sharedCount, at+1-cap(row.counts))...)
		}
	}
	row.hi = max(row.hi, at+1)
	e := &row.counts[at]
	if e.n1 == 0 {
		_, n, first, last := env.partnersAt(l.join)
		*e = sharedCount{n1: int32(n) + 1, first: int32(first), last: int32(last)}
	}
	if e.n1 == 1 {
		return 0, nil, nil
	}
	els := c.sets[l.join.id].els
	return int(e.n1 - 1), &els[e.first], &els[e.last]
}
