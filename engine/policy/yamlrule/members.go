package yamlrule

// A message's members, looked up once per document. The relational rules
// read the same few members (role, text, tool_calls …) of every message,
// each rule again, and OPA's object Get hashes the key string on every
// call. Each member name a compiled path reads gets a slot number when it
// is compiled; the relCache keeps, per message of the current document, the
// members already looked up in a row of slots.

import (
	"sync"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
)

var (
	slotMu    sync.Mutex
	slotOf    = map[string]int{}
	slotCount atomic.Int64
)

// memberSlot returns name's slot number, giving it one on first use.
func memberSlot(name string) int {
	slotMu.Lock()
	defer slotMu.Unlock()
	s, ok := slotOf[name]
	if !ok {
		s = len(slotOf)
		slotOf[name] = s
		slotCount.Store(int64(len(slotOf)))
	}
	return s
}

// maxMemberRows bounds the rows a document keeps: the messages past it are
// looked up directly, so that a huge conversation does not cost slots per
// message (a row is a pointer per member name of every loaded pack).
const maxMemberRows = 512

// absentMember marks a slot looked up and found missing.
var absentMember = ast.NullTerm()

// memberRows is the per-document store of the messages' members.
type memberRows struct {
	stride int          // slots per row: the slot count when the document began
	objs   []ast.Object // the message each row holds the members of
	terms  []*ast.Term  // row r is terms[r*stride:(r+1)*stride]; nil = not looked up
	// restarts counts the rows handed another object than they held: a
	// caller that names the wrong row (memberAt) shows there
	restarts int
	// set lists the slots of terms written since the last reset, which
	// clears only those: clearing every slot of every row cost more than
	// the lookups it saved once the collector ran (each nil written to
	// pointer memory passes its write barrier), and a row has a slot for
	// every member name of every pack while a document fills a few
	set []int32
}

// reset starts a new document. It drops every reference to the last one
// (a member can be a large text), which also leaves all of terms' capacity
// nil, as a row that get starts for a new object expects.
func (m *memberRows) reset() {
	clear(m.objs)
	for _, i := range m.set {
		m.terms[i] = nil
	}
	m.objs, m.terms, m.set = m.objs[:0], m.terms[:0], m.set[:0]
	m.stride = int(slotCount.Load())
}

// get returns o's member s, o being the document (row 0) or its message
// row-1. A row holds the members of one object only: should another object
// come with the same row, the row starts again, so that a member of another
// object is never returned.
func (m *memberRows) get(o ast.Object, row int, key *ast.Term, slot int) *ast.Term {
	if slot >= m.stride || row < 0 || row >= maxMemberRows {
		return o.Get(key)
	}
	if row >= len(m.objs) {
		for len(m.objs) <= row {
			m.objs = append(m.objs, nil)
		}
		n := len(m.objs) * m.stride
		if cap(m.terms) < n {
			t := make([]*ast.Term, len(m.terms), n+n/2)
			copy(t, m.terms)
			m.terms = t
		}
		m.terms = m.terms[:n]
	}
	base := row * m.stride
	if m.objs[row] != o {
		if m.objs[row] != nil {
			// another object of this document: should not happen, but be
			// safe (the slots stay in set, cleared again by reset)
			clear(m.terms[base : base+m.stride])
			m.restarts++
		}
		m.objs[row] = o
	}
	t := m.terms[base+slot]
	if t == nil {
		if t = o.Get(key); t == nil {
			t = absentMember
		}
		m.terms[base+slot] = t
		m.set = append(m.set, int32(base+slot))
	}
	if t == absentMember {
		return nil
	}
	return t
}

// member is o.Get(s.key), from sc's rows when o is sc's document or
// message.
func member(o ast.Object, s *seg, sc *scope) *ast.Term {
	if v, ok := o.(*document.MessageValue); ok { // its slot, without the rows (views.go)
		return v.Member(s.msgSlot, s.key)
	}
	return memberOf(o, s.key, s.slot, sc)
}

// memberOf is member for a key and its slot.
func memberOf(o ast.Object, key *ast.Term, slot int, sc *scope) *ast.Term {
	if v, ok := o.(*document.MessageValue); ok {
		return v.Get(key)
	}
	switch {
	case sc.mem == nil:
		return o.Get(key)
	case o == sc.message:
		return sc.mem.get(o, int(sc.msgIdx)+1, key, slot)
	case o == sc.doc:
		return sc.mem.get(o, 0, key, slot)
	}
	return o.Get(key)
}

// memberAt is member for an object whose row the caller knows: 0 for the
// document, i+1 for message i, -1 for any other object. The walks and
// lookupValue know which object they stand at, so they need not compare it
// with the document and the message (two interface comparisons per
// lookup). get checks that the row holds o, so a wrong row costs a lookup,
// never a wrong member.
func memberAt(o ast.Object, s *seg, sc *scope, row int32) *ast.Term {
	if v, ok := o.(*document.MessageValue); ok {
		return v.Member(s.msgSlot, s.key)
	}
	if sc.mem == nil || row < 0 {
		return o.Get(s.key)
	}
	return sc.mem.get(o, int(row), s.key, s.slot)
}

// ctxRow is the row of the context k names in sc (see memberAt).
func (sc *scope) ctxRow(k ctxKind) int32 {
	switch k {
	case ctxMessage:
		return sc.msgIdx + 1
	case ctxDocument:
		return 0
	}
	return -1
}
