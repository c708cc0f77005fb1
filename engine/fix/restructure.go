package fix

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/chatlint/chatlint/engine/jsonv"
)

// A unit is one element of a sequence being rebuilt: a message of a
// record's messages array, or a line of a session file.
type unit struct {
	val      jsonv.Value // array layout: the message; session layout: the new entry of an inserted unit
	rec      int         // session layout: the record index, or -1-k for the k-th inserted record
	msg      int         // the normalized message, or -1
	dropped  bool
	moved    bool
	inserted bool
	before   []placement
	after    []placement
	home     *container // array layout: the array the unit belongs to; nil for a message outside any array
	idx      int        // array layout: the unit's index in home
}

// placement puts a unit next to an anchor; units placed on the same side of
// one anchor go in rank order, then in the order of their actions.
type placement struct {
	u    *unit
	rank float64
	seq  int
}

// container is an array of messages inside a record.
type container struct {
	rec int
	ptr string
}

// restructure applies the operations that change which messages or lines
// there are and in what order: dropped messages and entries, inserted and
// moved messages. It returns the order of the output records, or nil when
// it is the input order minus the dropped ones.
func (a *applier) restructure() ([]int, error) {
	structural := false
	for _, o := range a.ops {
		switch o.Op {
		case OpDropMessage, OpInsert, OpMove:
			structural = true
		case OpDropEntry:
			i, err := a.line(a.es[o.entry].line)
			if err != nil {
				return nil, err
			}
			a.dropped[i] = true
			structural = structural || a.sessionLayout() // parent links to mend
		}
	}
	if a.sessionLayout() && slices.Contains(a.dropped, true) {
		structural = true // lines a drop took whole: links to mend
	}
	if !structural {
		return nil, nil
	}
	if a.sessionLayout() {
		if err := a.dropParts(a.parts); err != nil {
			return nil, err
		}
		return a.restructureSession()
	}
	return nil, a.restructureArrays()
}

// restructureArrays rebuilds the messages arrays of chat, contract and
// proxy-log records.
func (a *applier) restructureArrays() error {
	units := make([]*unit, len(a.ms))
	homes := map[container]*container{}
	for m, info := range a.ms {
		rec, err := a.line(info.line)
		if err != nil {
			return err
		}
		root, err := a.value(rec)
		if err != nil {
			return err
		}
		v, err := lookup(root, info.path)
		if err != nil {
			return err
		}
		u := &unit{val: v, rec: rec, msg: m}
		if arr, idx, ok := splitIndex(info.path); ok {
			k := container{rec: rec, ptr: arr}
			if homes[k] == nil {
				homes[k] = &k
			}
			u.home, u.idx = homes[k], idx
		}
		units[m] = u
	}
	if err := a.keepOthers(units, homes); err != nil {
		return err
	}
	if err := a.place(units, units, func(o *op, anchor *unit) (*unit, error) {
		if anchor.home == nil {
			return nil, fmt.Errorf("rule %s: %s %s: message %d is not in a messages list (a proxy-log response); it can only be edited in place", o.Rule, o.Op, o.Target, anchor.msg)
		}
		return &unit{val: o.message, msg: -1, inserted: true, home: anchor.home}, nil
	}); err != nil {
		return err
	}
	for _, o := range a.ops {
		if (o.Op == OpDropMessage || o.Op == OpMove) && units[o.msg].home == nil {
			return fmt.Errorf("rule %s: %s %s: the message is not in a messages list (a proxy-log response); it can only be edited in place", o.Rule, o.Op, o.Target)
		}
	}
	out, err := emit(units)
	if err != nil {
		return err
	}
	arrays := map[*container][]jsonv.Value{}
	for _, u := range units {
		if u.home != nil {
			arrays[u.home] = []jsonv.Value{} // a list left empty is still written
		}
	}
	for _, u := range out {
		if u.home != nil {
			arrays[u.home] = append(arrays[u.home], u.val)
		}
	}
	// A list inside a message (content blocks) is set before the list
	// holding that message: the pointer still leads to it then.
	order := make([]*container, 0, len(arrays))
	for c := range arrays {
		order = append(order, c)
	}
	slices.SortFunc(order, func(x, y *container) int {
		if d := len(y.ptr) - len(x.ptr); d != 0 {
			return d
		}
		return x.rec - y.rec
	})
	for _, c := range order {
		if err := set(a.vals[c.rec], c.ptr, arrays[c]); err != nil {
			return err
		}
		a.dirty[c.rec] = true
	}
	return nil
}

// keepOthers keeps the elements of a rebuilt list that are not messages of
// their own: the other blocks of a user message whose Anthropic tool_result
// blocks are messages, or a message made only of such blocks. Each stays
// right after the message before it in its list (or before the first one),
// and goes where that message goes.
func (a *applier) keepOthers(units []*unit, homes map[container]*container) error {
	held := map[*container]map[int]*unit{}
	for _, u := range units {
		if u.home != nil {
			if held[u.home] == nil {
				held[u.home] = map[int]*unit{}
			}
			held[u.home][u.idx] = u
		}
	}
	for _, c := range homes {
		v, err := lookup(a.vals[c.rec], c.ptr)
		if err != nil {
			return err
		}
		arr, _ := v.([]jsonv.Value)
		byIdx := held[c]
		for p, x := range arr {
			if byIdx[p] != nil {
				continue
			}
			other := placement{u: &unit{val: x, rec: c.rec, msg: -1, home: c, idx: p}, rank: math.Inf(-1), seq: p - len(arr)}
			if anchor := nearest(byIdx, p, -1, len(arr)); anchor != nil {
				anchor.after = append(anchor.after, other)
			} else if anchor := nearest(byIdx, p, 1, len(arr)); anchor != nil {
				anchor.before = append(anchor.before, other)
			}
		}
	}
	return nil
}

// nearest returns the unit closest to index p in direction step (-1 or 1).
func nearest(byIdx map[int]*unit, p, step, n int) *unit {
	for i := p + step; i >= 0 && i < n; i += step {
		if u := byIdx[i]; u != nil {
			return u
		}
	}
	return nil
}

// restructureSession rebuilds the lines of a session file: each message is
// one entry line (pi-session), or one or more (Claude Code, Codex: the lines
// of a message go together); an inserted message becomes a new entry.
func (a *applier) restructureSession() ([]int, error) {
	units := make([]*unit, len(a.recs))
	first := make([]*unit, len(a.ms)) // each message's first line: what moves or drops
	last := make([]*unit, len(a.ms))  // and its last: what later messages are placed after
	follow := map[*unit][]*unit{}
	for i := range a.recs {
		units[i] = &unit{rec: i, msg: -1, dropped: a.dropped[i]}
	}
	for m, info := range a.ms {
		for k, ln := range info.lines {
			rec, err := a.line(ln)
			if err != nil {
				return nil, err
			}
			u := units[rec]
			switch {
			case k == 0:
				first[m] = u
				if u.msg < 0 {
					u.msg = m
				}
			case u != first[m]:
				follow[first[m]] = append(follow[first[m]], u)
			}
			last[m] = u
		}
	}
	if err := a.shared(first); err != nil {
		return nil, err
	}
	err := a.place(first, last, func(o *op, anchor *unit) (*unit, error) {
		entry, err := a.newEntry(anchor.rec, o)
		if err != nil {
			return nil, err
		}
		a.inserted = append(a.inserted, entry)
		return &unit{rec: -len(a.inserted), msg: -1, inserted: true}, nil
	})
	if err != nil {
		return nil, err
	}
	// The other lines of a message go where its first line goes.
	for u, fs := range follow {
		for k, f := range fs {
			switch {
			case u.dropped:
				f.dropped = true
			case u.moved:
				f.moved = true
				u.after = append(u.after, placement{u: f, rank: math.Inf(-1), seq: k - len(fs)})
			}
		}
	}
	out, err := emit(units)
	if err != nil {
		return nil, err
	}
	order := make([]int, len(out))
	for i, u := range out {
		order[i] = u.rec
	}
	for _, u := range units {
		if u.dropped && u.rec >= 0 {
			a.dropped[u.rec] = true // for relink: what hung from it
		}
	}
	if a.entryLayout() != nil {
		return order, a.relink(order)
	}
	if err := a.rechain(order); err != nil {
		return nil, err
	}
	return order, nil
}

// shared refuses to move or drop on its own a message whose line holds
// another message too (a Claude Code user entry with several tool_result
// blocks): the line can only go whole.
func (a *applier) shared(first []*unit) error {
	for _, o := range a.ops {
		if (o.Op != OpMove && o.Op != OpDropMessage) || o.block || a.partDrop(o) {
			continue // a block dropped from its line leaves the line's other messages where they are
		}
		for m, u := range first {
			if m != o.msg && u == first[o.msg] && !a.alsoGoes(m, o) {
				return fmt.Errorf("rule %s: %s %s: message %d shares its entry line with message %d; it cannot be moved or dropped on its own", o.Rule, o.Op, o.Target, o.msg, m)
			}
		}
	}
	return nil
}

// alsoGoes reports whether message m is moved or dropped the same way as o's.
func (a *applier) alsoGoes(m int, o *op) bool {
	for _, x := range a.ops {
		if x.msg == m && x.Op == o.Op && x.anchor == o.anchor && !x.block {
			return true
		}
	}
	return false
}

// place marks dropped and moved messages and hangs inserted and moved ones
// on their anchors. units are indexed by normalized message: each
// message's unit, and the unit later messages are placed after (its last
// line).
func (a *applier) place(units, after []*unit, newUnit func(*op, *unit) (*unit, error)) error {
	for _, o := range a.ops {
		switch o.Op {
		case OpDropMessage:
			if !a.partDrop(o) && !o.block {
				units[o.msg].dropped = true
			}
		case OpMove:
			u, anchor := units[o.msg], after[o.anchor]
			u.moved = true
			anchor.after = append(anchor.after, placement{u: u, rank: o.rank, seq: o.seq})
		case OpInsert:
			anchor := after[o.msg]
			if o.before {
				anchor = units[o.msg]
			}
			u, err := newUnit(o, anchor)
			if err != nil {
				return err
			}
			p := placement{u: u, rank: o.rank, seq: o.seq}
			if o.before {
				anchor.before = append(anchor.before, p)
			} else {
				anchor.after = append(anchor.after, p)
			}
		}
	}
	return nil
}

// emit walks the units in order, each followed by what was placed after it
// (and preceded by what was placed before it); a dropped unit still holds
// its place for them. Moved units appear only where they were placed.
func emit(units []*unit) ([]*unit, error) {
	var out []*unit
	moved, placed := 0, 0
	var walk func(u *unit, depth int) error
	walk = func(u *unit, depth int) error {
		if depth > len(units)+1 {
			return fmt.Errorf("moves form a cycle")
		}
		for _, p := range sorted(u.before) {
			if err := walk(p.u, depth+1); err != nil {
				return err
			}
		}
		if u.moved {
			placed++
		}
		if !u.dropped {
			out = append(out, u)
		}
		for _, p := range sorted(u.after) {
			if err := walk(p.u, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	for _, u := range units {
		if u.moved {
			moved++
			continue
		}
		if err := walk(u, 0); err != nil {
			return nil, err
		}
	}
	if placed != moved {
		return nil, fmt.Errorf("moves form a cycle: %d message(s) are placed after each other", moved-placed)
	}
	return out, nil
}

func sorted(ps []placement) []placement {
	slices.SortStableFunc(ps, func(x, y placement) int {
		switch {
		case x.rank < y.rank:
			return -1
		case x.rank > y.rank:
			return 1
		}
		return x.seq - y.seq
	})
	return ps
}

// newEntry wraps an inserted message in an pi-session entry modelled on
// its anchor's: same type and timestamp, and a fresh id derived from the
// anchor's id and the message (deterministic, so a second run gives the same
// bytes) when the session's entries have ids.
func (a *applier) newEntry(anchorRec int, o *op) (jsonv.Value, error) {
	if a.entryLayout() != nil {
		return a.layoutEntry(anchorRec, o)
	}
	v, err := a.value(anchorRec)
	if err != nil {
		return nil, err
	}
	anchor, _ := v.(*jsonv.Object)
	e := &jsonv.Object{}
	e.Set("type", "message")
	if anchor != nil {
		if id, ok := anchor.Get("id"); ok {
			if s, ok := id.(string); ok {
				h := sha256.Sum256(append([]byte(s+"\x00"), jsonv.Marshal(o.message, jsonv.Compact)...))
				e.Set("id", hex.EncodeToString(h[:4]))
			}
		}
		if _, ok := anchor.Get("parentId"); ok {
			e.Set("parentId", nil) // set by rechain
		}
		if ts, ok := anchor.Get("timestamp"); ok {
			e.Set("timestamp", ts)
		}
	}
	e.Set("message", o.message)
	return e, nil
}

// rechain keeps a session's parent links true after lines were dropped,
// inserted or moved: when every entry with a parentId named the entry
// before it (a linear session), each entry names its new predecessor.
// Sessions with branches are left as they are.
func (a *applier) rechain(order []int) error {
	val := func(r int) (*jsonv.Object, error) {
		if r < 0 {
			o, _ := a.inserted[-1-r].(*jsonv.Object)
			return o, nil
		}
		v, err := a.value(r)
		o, _ := v.(*jsonv.Object)
		return o, err
	}
	// Is the input linear?
	var prev any
	first, root := true, any(nil)
	for i := range a.recs {
		o, err := val(i)
		if err != nil || o == nil {
			return nil // a line that is not an object: leave the links alone
		}
		id, hasID := o.Get("id")
		if t, _ := o.Get("type"); t == "session" || !hasID {
			continue
		}
		if p, ok := o.Get("parentId"); ok {
			if first {
				root = p
			} else if !same(p, prev) {
				return nil
			}
		} else {
			return nil
		}
		first = false
		prev = id
	}
	if first {
		return nil // no linked entries
	}
	prev = root
	for _, r := range order {
		o, _ := val(r)
		if o == nil {
			continue
		}
		id, hasID := o.Get("id")
		if t, _ := o.Get("type"); t == "session" || !hasID {
			continue
		}
		if p, _ := o.Get("parentId"); !same(p, prev) || r < 0 {
			o.Set("parentId", prev)
			if r >= 0 {
				a.dirty[r] = true
			}
		}
		prev = id
	}
	return nil
}

// same compares two ids; only scalars can be equal (lists and objects are
// never ids, and comparing them would not be meaningful).
func same(x, y any) bool {
	switch x.(type) {
	case nil, bool, string, json.Number:
		return x == y
	}
	return false
}
