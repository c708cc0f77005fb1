// Package sweep decides how much of an exhaustive equivalence sweep a test
// runs. The default `go test ./...` is an inner loop and runs a fixed sample
// of each sweep; the `exhaustive` build tag, which .ci/run sets, runs every
// case. The sample is deterministic, so a failure in the default run
// reproduces on the next one.
package sweep

import (
	"hash/fnv"
	"slices"
)

// Full reports whether sweeps run every case (the `exhaustive` build tag).
func Full() bool { return full }

// Pick returns items when sweeps run in full, and otherwise the n whose
// names hash lowest, in their original order: which cases run depends on
// their names alone, not on the order they were listed in.
func Pick[T any](items []T, n int, name func(T) string) []T {
	if full || len(items) <= n {
		return items
	}
	type ranked struct {
		rank uint64
		i    int
	}
	rs := make([]ranked, len(items))
	for i, it := range items {
		h := fnv.New64a()
		h.Write([]byte(name(it)))
		rs[i] = ranked{h.Sum64(), i}
	}
	slices.SortFunc(rs, func(a, b ranked) int {
		switch {
		case a.rank < b.rank:
			return -1
		case a.rank > b.rank:
			return 1
		}
		return a.i - b.i
	})
	keep := make([]int, 0, n)
	for _, r := range rs[:n] {
		keep = append(keep, r.i)
	}
	slices.Sort(keep)
	out := make([]T, 0, n)
	for _, i := range keep {
		out = append(out, items[i])
	}
	return out
}

// Strings is Pick over names.
func Strings(items []string, n int) []string {
	return Pick(items, n, func(s string) string { return s })
}

// Keys returns the sorted keys of m, sampled as Strings, with the keys
// named in always kept in the sample too (the cases a sweep must not lose).
func Keys[V any](m map[string]V, n int, always ...string) []string {
	var keys, rest []string
	for k := range m {
		if slices.Contains(always, k) {
			keys = append(keys, k)
		} else {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	keys = append(keys, Strings(rest, max(n-len(keys), 0))...)
	slices.Sort(keys)
	return keys
}
