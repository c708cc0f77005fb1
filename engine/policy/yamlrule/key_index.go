package yamlrule

import "math/bits"

// keyIndex finds the positions whose key has a given hash: a scan of the
// hashes for the few elements of most documents, a table beyond that. The
// table holds the first and last position of each hash and next chains the
// others, rather than a slice per hash: a set of 800,000 distinct ids would
// otherwise hold as many one-element slices. It is open-addressed, sized
// before a partner set's keys are added (reserve) and kept from document
// to document: a map grew and rehashed a few times per set of a long
// session, and each of its inserts and lookups cost several times a probe.
type keyIndex struct {
	hashes []uint64
	ok     []bool  // the key has no absent value
	next   []int32 // with table: the next position of the same hash, -1 after the last
	table  []keySlot
	shift  uint // 64 - log2(len(table))
	used   int  // the table's occupied slots
	want   int  // the positions reserve announced
}

// keySlot is a hash's chain; first is the position plus one, 0 in an
// empty slot.
type keySlot struct {
	h           uint64
	first, last int32
}

const keyIndexScan = 64

// keyIndexLoad is the table's largest load, in 1/8ths.
const keyIndexLoad = 6

func (x *keyIndex) reset() {
	x.hashes, x.ok, x.next = x.hashes[:0], x.ok[:0], x.next[:0]
	x.table, x.used, x.want = x.table[:0], 0, 0
}

// reserve announces that n positions will be added.
func (x *keyIndex) reserve(n int) {
	x.want = n
	x.hashes = growTo(x.hashes, n)
	x.ok = growTo(x.ok, n)
}

func growTo[T any](s []T, n int) []T {
	if cap(s) < n {
		return append(make([]T, 0, n), s...)
	}
	return s
}

func (x *keyIndex) add(h uint64, ok bool) {
	x.hashes = append(x.hashes, h)
	x.ok = append(x.ok, ok)
	if len(x.table) == 0 && len(x.hashes) <= keyIndexScan {
		return
	}
	if len(x.table) == 0 {
		x.size(max(x.want, len(x.hashes)))
		x.next = growTo(x.next[:0], max(x.want, len(x.hashes)))
		for i := range x.hashes[:len(x.hashes)-1] {
			x.link(i)
		}
	}
	x.link(len(x.hashes) - 1)
}

// size makes the table empty with room for n hashes.
func (x *keyIndex) size(n int) {
	need := max((n*8+keyIndexLoad-1)/keyIndexLoad, 2*keyIndexScan)
	b := bits.Len(uint(need - 1))
	k := 1 << b
	if cap(x.table) >= k {
		x.table = x.table[:k]
		clear(x.table)
	} else {
		x.table = make([]keySlot, k)
	}
	x.shift, x.used = uint(64-b), 0
}

// slot returns h's slot: its chain, or the empty slot it would take.
func (x *keyIndex) slot(h uint64) *keySlot {
	mask := len(x.table) - 1
	for i := int((h * 0x9e3779b97f4a7c15) >> x.shift); ; i = (i + 1) & mask {
		s := &x.table[i]
		if s.first == 0 || s.h == h {
			return s
		}
	}
}

// link puts position i, the last one linked, at the end of its hash's chain.
func (x *keyIndex) link(i int) {
	x.next = append(x.next, -1)
	if !x.ok[i] {
		return
	}
	if (x.used+1)*8 > len(x.table)*keyIndexLoad {
		x.grow()
	}
	h := x.hashes[i]
	s := x.slot(h)
	if s.first != 0 {
		x.next[s.last] = int32(i)
		s.last = int32(i)
		return
	}
	*s = keySlot{h: h, first: int32(i) + 1, last: int32(i)}
	x.used++
}

// grow doubles the table, keeping its chains.
func (x *keyIndex) grow() {
	old := x.table
	x.table = nil
	x.size(len(old) * keyIndexLoad / 8 * 2) // twice the hashes it held
	for _, s := range old {
		if s.first != 0 {
			*x.slot(s.h) = s
			x.used++
		}
	}
}

// each calls f with every position whose key hash is h, in order, until f
// returns false.
func (x *keyIndex) each(h uint64, f func(int) bool) {
	if len(x.table) > 0 {
		s := x.slot(h)
		if s.first == 0 {
			return
		}
		for i := s.first - 1; i >= 0; i = x.next[i] {
			if !f(int(i)) {
				return
			}
		}
		return
	}
	for i, g := range x.hashes {
		if g == h && x.ok[i] && !f(i) {
			return
		}
	}
}
