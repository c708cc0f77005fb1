package tokens

// tiktoken-go does not export the merge of one piece, only Count over a
// whole text (which splits it with its regexp first), so the counter merges
// pieces itself over the same rank table (ranks.go): tiktoken's byte-pair
// merge, which joins the adjacent pair of parts whose joined bytes have the
// lowest rank, the leftmost among equal ranks, until no joined pair is a
// token.

// scanMax is the longest piece merged by scanning for the lowest pair each
// time, on the stack; longer ones keep their pairs in a heap.
const scanMax = 64

// count returns how many tokens the piece merges into: the count kept for
// it (pieces.go), or the piece looked up whole and merged.
func (r *ranks) count(piece string) int {
	switch len(piece) {
	case 0, 1:
		return len(piece)
	case 2: // one token or two bytes
		if r.pairs[pairIndex(piece)] != noRank {
			return 1
		}
		return 2
	}
	h := r.hash(piece)
	if n, ok := r.pieces.get(h); ok {
		return n
	}
	var n int
	switch {
	case r.rankOf(piece, h) != noRank:
		n = 1
	case len(piece) <= scanMax:
		n = r.countScan(piece)
	default:
		n = r.countHeap(piece)
	}
	r.pieces.put(h, n)
	return n
}

// countScan is tiktoken's merge: start[k] is where part k begins, rank[k]
// the rank of part k joined with part k+1.
func (r *ranks) countScan(piece string) int {
	var startBuf [scanMax + 1]int32
	var rankBuf [scanMax]uint32
	n := len(piece) // parts
	var start []int32
	var rank []uint32
	if n <= scanMax {
		start, rank = startBuf[:n+1], rankBuf[:n]
	} else { // the tests compare it with countHeap
		start, rank = make([]int32, n+1), make([]uint32, n)
	}
	for k := range n {
		start[k] = int32(k)
	}
	start[n] = int32(n)
	pair := func(k int) uint32 { // part k joined with part k+1
		if k+2 > n {
			return noRank
		}
		return r.rank(piece[start[k]:start[k+2]])
	}
	for k := range n {
		rank[k] = pair(k)
	}
	for n > 1 {
		best, at := uint32(noRank), -1
		for k := range n - 1 {
			if rank[k] < best {
				best, at = rank[k], k
			}
		}
		if at < 0 {
			break
		}
		// Join parts at and at+1.
		copy(start[at+1:], start[at+2:n+1])
		copy(rank[at+1:], rank[at+2:n])
		n--
		start, rank = start[:n+1], rank[:n]
		rank[at] = pair(at)
		if at > 0 {
			rank[at-1] = pair(at - 1)
		}
	}
	return n
}
