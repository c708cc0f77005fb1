package tokens

import "container/heap"

// countHeap is the same merge as countScan for long pieces (a word of
// thousands of letters, a base64 blob), where a scan per join would cost the
// square of the length: the parts are a linked list of their starts, and the
// pairs wait in a heap ordered by rank, then position, so the leftmost of
// equal ranks joins first. A pair whose part changed since it was pushed is
// skipped when popped: a part only grows, so its pair's rank never comes
// back to an old value.
func (r *ranks) countHeap(piece string) int {
	n := len(piece)
	next := make([]int32, n+1) // start of the next part, or -1 after the last
	prev := make([]int32, n+1)
	rank := make([]uint32, n+1) // rank of the part starting here joined with the next; noRank once joined
	for k := range n + 1 {
		next[k], prev[k], rank[k] = int32(k+1), int32(k-1), noRank
	}
	next[n] = -1
	pair := func(k int32) uint32 {
		j := next[k]
		if j < 0 || next[j] < 0 {
			return noRank
		}
		return r.rank(piece[k:next[j]])
	}
	h := make(pairHeap, 0, n)
	for k := range int32(n - 1) {
		if rank[k] = pair(k); rank[k] != noRank {
			h = append(h, pairAt{rank[k], k})
		}
	}
	heap.Init(&h)
	parts := n
	for h.Len() > 0 {
		top := heap.Pop(&h).(pairAt)
		k := top.at
		if rank[k] != top.rank {
			continue
		}
		j := next[k] // the part joined to k's
		rank[j] = noRank
		next[k] = next[j]
		if next[j] >= 0 {
			prev[next[j]] = k
		}
		parts--
		for _, b := range [2]int32{k, prev[k]} {
			if b < 0 {
				continue
			}
			if rank[b] = pair(b); rank[b] != noRank {
				heap.Push(&h, pairAt{rank[b], b})
			}
		}
	}
	return parts
}

type pairAt struct {
	rank uint32
	at   int32
}

type pairHeap []pairAt

func (h pairHeap) Len() int { return len(h) }
func (h pairHeap) Less(a, b int) bool {
	return h[a].rank < h[b].rank || h[a].rank == h[b].rank && h[a].at < h[b].at
}
func (h pairHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *pairHeap) Push(x any)   { *h = append(*h, x.(pairAt)) }
func (h *pairHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
