package fix

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/chatlint/chatlint/engine/jsonv"
)

// Formats whose messages are entry lines with a layout of their own (Claude
// Code, Codex: document.EntryLayout): inserted entries, and the parent links
// mended after lines were dropped, inserted or moved.

// layoutEntry wraps an inserted message in a new entry of the format,
// modelled on the entry it is inserted after: the layout's members in its
// order, copied from that entry where the layout does not set them, and a
// fresh id derived from the anchor's id and the message (deterministic, so a
// second run gives the same bytes).
func (a *applier) layoutEntry(anchorRec int, o *op) (jsonv.Value, error) {
	l := a.entryLayout()
	v, err := a.value(anchorRec)
	if err != nil {
		return nil, err
	}
	anchor, _ := v.(*jsonv.Object)
	role := ""
	if m, ok := o.message.(*jsonv.Object); ok {
		if r, ok := m.Get("role"); ok {
			role, _ = r.(string)
		}
	}
	e := &jsonv.Object{}
	for _, k := range l.Order {
		switch k {
		case l.Message:
			e.Set(k, o.message)
		case "type":
			e.Set(k, l.Type(role))
		case l.Parent:
			e.Set(k, nil) // set by relink
		case l.ID:
			seed := ""
			if anchor != nil {
				if id, ok := anchor.Get(l.ID); ok {
					seed, _ = id.(string)
				}
			}
			e.Set(k, newUUID(seed, o.message))
		default:
			if anchor == nil {
				continue
			}
			if x, ok := anchor.Get(k); ok {
				e.Set(k, x)
			}
		}
	}
	return e, nil
}

// newUUID derives a UUID-shaped id from a seed and a message.
func newUUID(seed string, msg jsonv.Value) string {
	h := sha256.Sum256(append([]byte(seed+"\x00"), jsonv.Marshal(msg, jsonv.Compact)...))
	h[6] = h[6]&0x0f | 0x40 // version 4 and the RFC 4122 variant, as Claude Code's ids
	h[8] = h[8]&0x3f | 0x80
	x := hex.EncodeToString(h[:16])
	return x[:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:]
}

// relink mends the parent links of a session whose entries are linked (the
// layout's ID and Parent, Claude Code's uuid and parentUuid) after lines were
// dropped, inserted or moved. The chain is the entries the document marks
// on_chain, in their new order. Only the turns a change touched are linked
// again, one entry after the other (the shape Claude Code resumes): the
// entries after the first line of a turn (an assistant message's other
// lines, its results, inserted ones) and the entry after the turn. Other
// turns keep their links byte for byte, including Claude Code's own shape
// for parallel calls (each result under its own call). An entry off the
// chain whose parent was dropped hangs from the dropped entry's parent.
func (a *applier) relink(order []int) error {
	l := a.entryLayout()
	if l.ID == "" || l.Parent == "" {
		return nil
	}
	obj := func(r int) *jsonv.Object {
		if r < 0 {
			o, _ := a.inserted[-1-r].(*jsonv.Object)
			return o
		}
		v, _ := a.value(r)
		o, _ := v.(*jsonv.Object)
		return o
	}
	str := func(o *jsonv.Object, k string) string {
		if o == nil {
			return ""
		}
		x, _ := o.Get(k)
		s, _ := x.(string)
		return s
	}
	onChain := make([]bool, len(a.recs))
	for _, e := range a.es {
		if i, err := a.line(e.line); err == nil && e.onChain {
			onChain[i] = true
		}
	}
	touched := a.touchedRecords()
	// Dropped entries, by id, with their parent: what hangs from them hangs
	// from the nearest ancestor left.
	goneParent := map[string]string{}
	for i := range a.recs {
		if a.dropped[i] {
			if o := obj(i); o != nil && str(o, l.ID) != "" {
				goneParent[str(o, l.ID)] = str(o, l.Parent)
			}
		}
	}
	survivor := func(p string) string {
		for n := 0; n <= len(goneParent); n++ {
			q, gone := goneParent[p]
			if !gone {
				return p
			}
			p = q
		}
		return p
	}
	set := func(r int, parent any) {
		o := obj(r)
		if o == nil {
			return
		}
		if cur, ok := o.Get(l.Parent); ok && same(cur, parent) && r >= 0 {
			return
		}
		o.Set(l.Parent, parent)
		if r >= 0 {
			a.dirty[r] = true
		}
	}
	var prev any // the id of the previous chain entry, nil before the first
	prevTouched, started := false, false
	for _, r := range order {
		o := obj(r)
		if o == nil {
			continue
		}
		if r >= 0 && !onChain[r] {
			if p := str(o, l.Parent); p != "" && survivor(p) != p {
				set(r, survivor(p))
			}
			continue
		}
		isTouched := r < 0 || touched[r]
		switch {
		case !started:
			if p := str(o, l.Parent); p != "" && survivor(p) != p {
				set(r, survivor(p))
			}
		case r < 0 || prevTouched:
			set(r, prev)
		default:
			if p := str(o, l.Parent); p != "" && survivor(p) != p {
				set(r, survivor(p))
			}
		}
		started = true
		prevTouched = isTouched
		if id := str(o, l.ID); id != "" {
			prev = id
		}
	}
	return nil
}

// touchedRecords are the records of the turns an operation changes: for
// each message an operation names (dropped, moved, inserted after or
// before, or a move's anchor), every line of its turn — the assistant
// message and the tool results after it — is touched.
func (a *applier) touchedRecords() []bool {
	turnOf := make([]int, len(a.ms))
	t := -1
	for i, m := range a.ms {
		switch m.role {
		case "assistant":
			t = i
		case "tool":
		default:
			t = -1 - i
		}
		turnOf[i] = t
	}
	turns := map[int]bool{}
	for _, o := range a.ops {
		if o.msg >= 0 && (o.Op == OpDropMessage || o.Op == OpMove || o.Op == OpInsert || o.Op == OpDropToolCall) {
			turns[turnOf[o.msg]] = true
		}
		if o.Op == OpMove {
			turns[turnOf[o.anchor]] = true
		}
	}
	out := make([]bool, len(a.recs))
	for i, m := range a.ms {
		if !turns[turnOf[i]] {
			continue
		}
		for _, ln := range m.lines {
			if r, err := a.line(ln); err == nil {
				out[r] = true
			}
		}
	}
	return out
}
