package astjson

import "github.com/open-policy-agent/opa/v1/ast"

// Slabs carries the blocks terms and element slices are carved from
// (slabs) from one decode to the next, for values that live and die
// together: the lines of one session, which its document holds to its end.
// Each line decoded on its own starts a block of its own, sixteen terms,
// and most lines of a Claude Code session use a few of them; decoded in
// Slabs, only the session's last block has an unused tail.
//
// The lines of a session also repeat strings too long to intern: its id
// on every line, each entry's uuid as the next one's parent, a message id
// on each line of the message, a tool call's id in its result. Slabs
// shares the term of a string met again within a few lines
// (recentStrings), so such a string is held once.
//
// A Slabs is used by one goroutine at a time, and only for values that
// its user keeps or drops together.
type Slabs struct {
	alloc slabs
	// shareRecent: the lines repeat ids (NewSlabs). Where they do not
	// (a proxy log's sessions), the lookup per string costs time and
	// saves nothing.
	shareRecent bool
}

// NewSlabs returns the Slabs of one session; shareRecent says that its lines
// repeat strings too long to intern, which it then holds once.
func NewSlabs(shareRecent bool) *Slabs { return &Slabs{shareRecent: shareRecent} }

// DecodeProjectedIn is DecodeProjectedMax carving the value's terms from s's
// blocks, and sharing the strings it met recently where s shares them.
func DecodeProjectedIn(data []byte, p *Projection, s *Slabs, max int) (ast.Value, error) {
	if s != nil && s.shareRecent && s.alloc.recent == nil {
		s.alloc.recent = new(recentStrings)
	}
	v, _, err := decodeBounded(data, p, s, max)
	return v, err
}

const (
	// maxRecentLen bounds the strings recentStrings shares: ids and
	// timestamps, not text.
	maxRecentLen = 64
	recentBits   = 12
)

// recentStrings is a direct-mapped cache of the string terms a session's
// lines made last, by hash: a lookup is a hash and a compare, and a string
// that does not repeat costs a store. Decoded terms are never mutated, so
// two lines may hold the same one, as they hold interned ones.
type recentStrings [1 << recentBits]*ast.Term

// string returns the term of s: the one made for an equal string that
// still holds s's slot, or a new one carved from alloc.
func (r *recentStrings) string(alloc *slabs, s []byte) *ast.Term {
	slot := &r[hashKey(s)&(1<<recentBits-1)]
	if t := *slot; t != nil {
		if v, ok := t.Value.(ast.String); ok && string(v) == string(s) {
			// Counted as made: the term belongs to this session, and an
			// object holding it must not be shared process-wide
			// (shared.go), which would pin the session's blocks.
			alloc.made++
			return t
		}
	}
	t := alloc.term(ast.String(string(s)))
	*slot = t
	return t
}
