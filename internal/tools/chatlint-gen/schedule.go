package main

import (
	"math"
	"math/rand/v2"
	"slices"
)

// schedule decides which records are defective: exactly one defect falls at
// a random position in each stratum [k/p, (k+1)/p) of record indices, so the
// count over n records is n*p give or take one. Kinds cycle through random
// permutations of the kind list, so every kind occurs equally often.
type schedule struct {
	p     float64
	kinds []string
	pcg   rand.PCG
	r     *rand.Rand
	perm  []string
	k     uint64 // defects handed out so far
	next  uint64 // index of the next defective record
}

func newSchedule(seed uint64, p float64, kinds []string) *schedule {
	s := &schedule{p: p, kinds: kinds}
	s.pcg.Seed(mix(seed^streamSchedule<<56), mix(streamSchedule))
	s.r = rand.New(&s.pcg)
	s.next = s.position(0)
	return s
}

func (s *schedule) position(min uint64) uint64 {
	if s.p <= 0 {
		return math.MaxUint64
	}
	pos := uint64((float64(s.k) + s.r.Float64()) / s.p)
	return max(pos, min)
}

// at returns the defect of record i, or "". It must be called for
// i = 0, 1, 2, … in order.
func (s *schedule) at(i uint64) string {
	if i != s.next {
		return ""
	}
	c := s.k % uint64(len(s.kinds))
	if c == 0 {
		s.perm = slices.Clone(s.kinds)
		s.r.Shuffle(len(s.perm), func(a, b int) { s.perm[a], s.perm[b] = s.perm[b], s.perm[a] })
	}
	kind := s.perm[c]
	s.k++
	s.next = s.position(i + 1)
	return kind
}
