package astjson

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// object builds the object whose '{' is at Data[i]: every member whole (p
// nil), or the members p keeps, each as p projects it (project.go); the
// others are lexed and validated, not built.
//
// The object is built once with ast.NewObject: that allocates all members in
// one block, where Insert allocates one element per member and rehashes on
// every duplicate. NewObject copies its arguments, so members are collected
// in scratch space: an array on the goroutine stack for the first few (most
// objects are small, and stores to the stack need no GC write barrier), then
// d.kvs, a heap stack shared by every nesting level.
func (d *decoder) object(i int, p *Projection) (*ast.Term, int) {
	if !d.Enter(i) {
		return nil, -1
	}
	made := d.alloc.made
	s, j, more := d.Member(i+1, true)
	if !more {
		if j < 0 {
			return nil, j
		}
		return d.alloc.term(ast.NewObject()), j
	}
	var local [smallContainer][2]*ast.Term
	n := 0
	base := len(d.kvs)
	// seen ORs one bit per key, picked by the key's hash; a key whose bit is
	// already set may repeat an earlier one, and only then is dedupe run.
	var seen uint64
	mayRepeat := false
	// viewHash is a view's hash, OPA's object hash: the sum of its keys'
	// and values' hashes, most keys' and many short values' the intern
	// cache's, taken once per string rather than once per record.
	view := p != nil && p.View
	viewHash := 0
	var index *memberIndex
	if p != nil {
		index = p.members()
	}
	for more {
		var node *Projection
		// Short keys come from the process-wide intern cache: chat
		// records repeat the same few keys in every line. The hash also
		// picks the key's bit in seen.
		var e *internEntry
		var h uint64
		if len(s) <= maxInternLen {
			h = hashKey(s)
			e = internEntryOf(s, h)
		} else {
			h = uint64(len(s)) << 58 // long keys are rare; equal keys have equal lengths
		}
		if p != nil {
			var keep bool
			if index.exact {
				node, keep = index.member(p, e)
			} else if node, keep = p.Members[string(s)]; !keep && p.KeepOthers && !p.Omit[string(s)] {
				node, keep = p.Others, true
			}
			if !keep {
				end := d.skip(j)
				if end < 0 {
					return nil, end
				}
				if s, j, more = d.Member(end, false); j < 0 {
					return nil, j
				}
				continue
			}
		}
		k := d.key(s, e)
		if !view {
		} else if e != nil {
			viewHash += e.hash
		} else {
			viewHash += k.Value.Hash()
		}
		bit := uint64(1) << (h >> 58)
		mayRepeat = mayRepeat || seen&bit != 0
		seen |= bit
		var v *ast.Term
		var end int
		if p == nil {
			v, end = d.memberValue(j)
		} else {
			v, end = d.project(j, node)
		}
		if v == nil {
			return nil, end
		}
		if !view {
		} else if d.interned != nil && v == &d.interned.term {
			viewHash += d.interned.hash
		} else {
			viewHash += v.Value.Hash()
		}
		if d.left--; d.left < 0 && !d.more(end) { // bound.go
			d.kvs = d.kvs[:base]
			return d.over(end)
		}
		if n < len(local) {
			local[n] = [2]*ast.Term{k, v}
		} else {
			if n == len(local) {
				d.kvs = append(d.kvs, local[:]...)
			}
			d.kvs = append(d.kvs, [2]*ast.Term{k, v})
		}
		n++
		if s, j, more = d.Member(end, false); j < 0 {
			return nil, j
		}
	}
	kvs := local[:min(n, len(local))]
	if n > len(local) {
		kvs = d.kvs[base:]
	}
	summed := true
	if mayRepeat {
		n := len(kvs)
		kvs = dedupe(kvs)
		summed = len(kvs) == n // else a repeated key was summed twice
	}
	if d.share && d.alloc.made == made && len(kvs) > 0 { // every member a shared term (shared.go)
		if t := sharedObject(kvs, p != nil && p.View); t != nil {
			d.kvs = d.kvs[:base]
			return t, j
		}
	}
	var obj ast.Object
	if p != nil && p.View {
		if !summed {
			viewHash = objectHash(kvs)
		}
		obj = d.alloc.newObjectView(kvs, viewHash)
	} else {
		obj = ast.NewObject(kvs...)
	}
	d.kvs = d.kvs[:base] // a no-op unless members spilled
	return d.alloc.term(obj), j
}

// key returns the term of object key s, whose intern cache entry is e (nil
// when it has none).
func (d *decoder) key(s []byte, e *internEntry) *ast.Term {
	if e == nil {
		return d.alloc.str(s)
	}
	return &e.term
}

// smallContainer is how many members or elements are collected on the stack
// before spilling to the decoder's heap scratch.
const smallContainer = 8

// array builds the array whose '[' is at Data[i], each element whole (elem
// nil) or as elem projects it (project.go). Elements are collected like
// object members, then copied into an exactly sized slice for ast.NewArray,
// which keeps the slice it is given.
func (d *decoder) array(i int, elem *Projection) (*ast.Term, int) {
	if !d.Enter(i) {
		return nil, -1
	}
	j, more := d.FirstElement(i + 1)
	if !more {
		if j < 0 {
			return nil, j
		}
		return d.alloc.term(ast.NewArray()), j
	}
	var local [smallContainer]*ast.Term
	n := 0
	base := len(d.elems)
	for more {
		var v *ast.Term
		var end int
		if elem == nil {
			v, end = d.value(j)
		} else {
			v, end = d.project(j, elem)
		}
		if v == nil {
			return nil, end
		}
		if d.left--; d.left < 0 && !d.more(end) { // bound.go
			d.elems = d.elems[:base]
			return d.over(end)
		}
		if n < len(local) {
			local[n] = v
		} else {
			if n == len(local) {
				d.elems = append(d.elems, local[:]...)
			}
			d.elems = append(d.elems, v)
		}
		n++
		if j, more = d.Element(end); j < 0 {
			return nil, j
		}
	}
	if n >= hugeArray && base <= n/8 {
		return d.alloc.term(ast.NewArray(d.takeScratch(base)...)), j
	}
	elems := d.alloc.slice(n)
	if n <= len(local) {
		copy(elems, local[:n])
	} else {
		copy(elems, d.elems[base:])
		d.elems = d.elems[:base]
	}
	return d.alloc.term(ast.NewArray(elems...)), j
}

// hugeArray is the length from which an array keeps the scratch stack its
// elements were gathered on instead of a copy.
const hugeArray = 1 << 20

// takeScratch returns the elements gathered on the scratch stack from base
// up, as the array's own slice: the stack moves to a new one holding the
// elements still pending below base (few: base is at most an eighth of the
// array). A copy would have the stack, the copy and the array's hashes
// live at once, 24 bytes per element and more; the stack's spare capacity
// (at most a quarter, as append grows it) is the price.
func (d *decoder) takeScratch(base int) []*ast.Term {
	elems := d.elems[base:len(d.elems):len(d.elems)]
	d.elems = append(make([]*ast.Term, 0, base+smallContainer), d.elems[:base]...)
	return elems
}

// dedupeMapMin is the member count from which dedupe switches from comparing
// every pair to a map; below it the pairwise scan is cheaper than hashing.
const dedupeMapMin = 24

// dedupe removes repeated keys from kvs in place, keeping the position of the
// first occurrence and the value of the last, as encoding/json does when it
// fills a map. ast.NewObject does not check for duplicates: it would build an
// object holding the key twice.
func dedupe(kvs [][2]*ast.Term) [][2]*ast.Term {
	if len(kvs) < 2 {
		return kvs
	}
	if len(kvs) >= dedupeMapMin {
		return dedupeMap(kvs)
	}
	w := 1
	for j := 1; j < len(kvs); j++ {
		kj := kvs[j][0]
		sj := kj.Value.(ast.String)
		dup := false
		for i := range w {
			if ki := kvs[i][0]; ki == kj || ki.Value.(ast.String) == sj {
				kvs[i][1] = kvs[j][1]
				dup = true
				break
			}
		}
		if !dup {
			kvs[w] = kvs[j]
			w++
		}
	}
	return kvs[:w]
}

func dedupeMap(kvs [][2]*ast.Term) [][2]*ast.Term {
	seen := make(map[ast.String]int, len(kvs))
	w := 0
	for j := range kvs {
		s := kvs[j][0].Value.(ast.String)
		if i, ok := seen[s]; ok {
			kvs[i][1] = kvs[j][1]
			continue
		}
		seen[s] = w
		kvs[w] = kvs[j]
		w++
	}
	return kvs[:w]
}
