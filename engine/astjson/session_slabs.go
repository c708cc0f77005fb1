package astjson

import "github.com/open-policy-agent/opa/v1/ast"

// Slabs carries the blocks terms and element slices are carved from
// (slabs) from one decode to the next, for values that live and die
// together: the lines of one session, which its document holds to its end.
// Each line decoded on its own starts a block of its own, sixteen terms,
// and most lines of a Claude Code session use a few of them; decoded in
// Slabs, only the session's last block has an unused tail.
//
// A Slabs is used by one goroutine at a time, and only for values that
// its user keeps or drops together.
type Slabs struct{ alloc slabs }

// DecodeProjectedIn is DecodeProjected carving the value's terms from s's
// blocks.
func DecodeProjectedIn(data []byte, p *Projection, s *Slabs) (ast.Value, error) {
	v, _, err := decodeCut(data, p, s)
	return v, err
}
