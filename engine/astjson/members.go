package astjson

import (
	"sync/atomic"
	"unsafe"
)

// An object's members are matched against a projection's names for every
// member of every record: a map lookup per member hashed its name again,
// after the decoder had hashed it to find its term in the intern cache. A
// projection whose names are all pinned in that cache (Key) is matched by
// the cache's entries instead: a decoded name equal to a pinned one is
// always that entry, and a name with no entry, or another one, is none of
// them.

// maxIndexed bounds the names matched by scanning: past it, the maps.
const maxIndexed = 24

// memberIndex is a projection's Members and Omit by their pinned entries.
type memberIndex struct {
	owner *Projection // the projection it was built for (a copy has its own)
	exact bool        // every name pinned and few: the index answers
	names []*internEntry
	nodes []*Projection
	omit  []*internEntry
}

// members is p's index, built on first use: by whichever decoder gets
// there first, the same index by any (a lost store builds it again).
func (p *Projection) members() *memberIndex {
	x := (*memberIndex)(atomic.LoadPointer(&p.index))
	if x != nil && x.owner == p {
		return x
	}
	x = &memberIndex{owner: p, exact: len(p.Members)+len(p.Omit) <= maxIndexed}
	for name, node := range p.Members {
		e := pin(name)
		if e == nil {
			x.exact = false
			break
		}
		x.names = append(x.names, e)
		x.nodes = append(x.nodes, node)
	}
	for name, omit := range p.Omit {
		if !omit {
			continue
		}
		e := pin(name)
		if e == nil {
			x.exact = false
			break
		}
		x.omit = append(x.omit, e)
	}
	atomic.StorePointer(&p.index, unsafe.Pointer(x))
	return x
}

// member returns the node of the member whose name's intern entry is e (nil
// for a name with none) and whether p keeps it, as Members and Omit say.
func (x *memberIndex) member(p *Projection, e *internEntry) (*Projection, bool) {
	if e != nil {
		for i, n := range x.names {
			if n == e {
				return x.nodes[i], true
			}
		}
	}
	if !p.KeepOthers {
		return nil, false
	}
	if e != nil {
		for _, n := range x.omit {
			if n == e {
				return nil, false
			}
		}
	}
	return p.Others, true
}
