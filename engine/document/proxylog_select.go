package document

// ProxyLogSelection decides which entries of a proxy-log session its record
// is squashed from. Every request carries the whole history, so the
// conversation is the last entry with the session's largest request message
// count; entries after it (a side request such as a title, with fewer
// messages) are cut: the trailing shorter-entry truncation of the reference
// converter. The proxy-log adapter selects its entry with it, and convert
// keeps the entries it names: one decision for every command.
//
// Feed it the request message count of each entry that has request
// messages, in file order; it keeps three integers, however long the
// session.
type ProxyLogSelection struct {
	n    int // entries added
	max  int // their largest message count
	last int // 0-based number of the last entry with max
}

// Add takes the next entry's request message count and reports whether
// that entry is now the selected one (the conversation's latest state).
func (s *ProxyLogSelection) Add(count int) bool {
	s.n++
	if s.n == 1 || count >= s.max {
		s.max, s.last = count, s.n-1
		return true
	}
	return false
}

// Entries is the number of entries added.
func (s *ProxyLogSelection) Entries() int { return s.n }

// Kept is the number of leading entries kept: up to and including the
// selected one (0 when none was added).
func (s *ProxyLogSelection) Kept() int {
	if s.n == 0 {
		return 0
	}
	return s.last + 1
}

// Max is the largest message count added.
func (s *ProxyLogSelection) Max() int { return s.max }

// Truncated reports whether entries after the selected one were cut.
func (s *ProxyLogSelection) Truncated() bool { return s.Kept() < s.n }
