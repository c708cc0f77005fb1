package yamlrule

import (
	"sort"

	"github.com/open-policy-agent/opa/v1/ast"
)

// keyGroups holds a keyed partner set's elements grouped by key: the
// partners of an element are one group's, cut by the join's order, so
// counting them and finding the first and last takes a lookup and a binary
// search rather than a walk of the group for every element (a turn of
// thousands of tool results, each call of it asking how many there are).
type keyGroups struct {
	built bool
	// ordered: the set's elements are in document order, so a group's
	// partners before or after an element are a range of it.
	ordered bool
	// of is each element's group, -1 where its key has an absent value;
	// members lists the elements (positions in the set) group by group, in
	// document order, group g's from start[g] to start[g+1].
	of      []int32
	members []int32
	start   []int32
}

func (g *keyGroups) reset() {
	g.built = false
	g.of, g.members, g.start = g.of[:0], g.members[:0], g.start[:0]
}

// build groups the set's elements: an element's group is its first equal
// key's, found as the first equal in its hash's chain.
func (g *keyGroups) build(ps *partnerSet, k int) {
	g.built = true
	n := len(ps.els)
	g.ordered = sort.SliceIsSorted(ps.els, func(a, b int) bool { return ps.els[a].position() < ps.els[b].position() })
	g.of = g.of[:0]
	count := g.start[:0]
	for i := range n {
		key := ps.keys[i*k : (i+1)*k]
		h, ok := hashValues(key)
		if !ok {
			g.of = append(g.of, -1)
			continue
		}
		grp := int32(-1)
		ps.index.each(h, func(j int) bool {
			if j < i && equalValues(key, ps.keys[j*k:(j+1)*k]) {
				grp = g.of[j]
				return false
			}
			return j < i
		})
		if grp < 0 {
			grp = int32(len(count))
			count = append(count, 0)
		}
		g.of = append(g.of, grp)
		count[grp]++
	}
	// count becomes each group's start, then the members are placed.
	sum := int32(0)
	for grp, c := range count {
		count[grp] = sum
		sum += c
	}
	count = append(count, sum)
	g.members = append(g.members[:0], make([]int32, sum)...)
	next := append([]int32(nil), count[:len(count)-1]...)
	for i, grp := range g.of {
		if grp >= 0 {
			g.members[next[grp]] = int32(i)
			next[grp]++
		}
	}
	g.start = count
}

// keyedRange is partnerRange for a keyed join without differ: the partners
// of the element env stands at are ps.groups.members[lo:hi]. ok is false
// where the join is not keyed or has differ (the caller walks them).
func (env *relEnv) keyedRange(j *joinSpec, ps *partnerSet) (lo, hi int, ok bool) {
	k := len(j.theirs)
	if k == 0 || len(j.differMine) > 0 {
		return 0, 0, false
	}
	g := &ps.groups
	if !g.built {
		g.build(ps, k)
	}
	if j.order != 0 && !g.ordered {
		return 0, 0, false
	}
	var buf [4]ast.Value
	key := appendValues(buf[:0], env.el.v, j.mine, &env.sc)
	h, hashed := hashValues(key)
	if !hashed {
		return 0, 0, true
	}
	grp := int32(-1)
	ps.index.each(h, func(i int) bool {
		if equalValues(key, ps.keys[i*k:(i+1)*k]) {
			grp = g.of[i]
			return false
		}
		return true
	})
	if grp < 0 {
		return 0, 0, true
	}
	lo, hi = int(g.start[grp]), int(g.start[grp+1])
	at := env.el.position()
	members := g.members[lo:hi]
	switch {
	case j.order < 0:
		hi = lo + sort.Search(len(members), func(i int) bool { return ps.els[members[i]].position() >= at })
	case j.order > 0:
		lo += sort.Search(len(members), func(i int) bool { return ps.els[members[i]].position() > at })
	}
	return lo, hi, true
}
