package document

import (
	"sync"

	"github.com/chatlint/chatlint/engine/astjson"
)

// RawTree is what the rules may read of a record's raw form (the document's
// raw, a message's raw): All, the value whole; else only its kind, whether
// it is there and empty, and the members (or elements, "*") Kids names, each
// as its own tree says. A YAML rule that tests raw only with type, present,
// optional, not_empty or truthy reads its kind and emptiness: a stand-in
// of that kind and emptiness gives it the same answers (astjson's Shape),
// and a 60 MB list beside it is not built.
//
// Same says a rule compares the value with the value at the same place of
// another element (a YAML same_as: integrity's message-repeated compares a
// message's raw content and tool calls with the previous message's): what
// the builder does not read of it is then a stand-in that keeps its
// equality (astjson's Digest) rather than a stub, and the builder's own
// partial reads (a list's first parts, a string probed for tags) are read
// whole.
type RawTree struct {
	All  bool
	Same bool
	Kids map[string]*RawTree
}

// rawReads is what the rules read of the raw forms, when the analysis knows
// it (WithRaw); the projection it makes for a chat record is built once.
type rawReads struct {
	record, message *RawTree // nil: not read
	once            sync.Once
	proj            [chatReadKinds]*astjson.Projection
	// viewed are proj with the raw messages, their tool calls and the
	// calls' functions decoded as object views (rawMessageViews' choice,
	// made where the document's messages are MessageValues).
	viewed [chatReadKinds]*astjson.Projection
}

// WithRaw returns f knowing what the rules read of a record's raw form
// (record) and of a message's (message), nil meaning nothing: a chat record
// is then decoded with what the builder reads and what they read, rather
// than whole as soon as a rule names raw.
func (f *Fields) WithRaw(record, message *RawTree) *Fields {
	if f.All() {
		return f
	}
	g := *f
	g.rawReads = &rawReads{record: record, message: message}
	return &g
}

// WithWholeRaw returns f keeping the record whole as raw, whatever the
// rules read of it: the dataset fold reads the record's dataset key from it
// (policy.Engine.DatasetReadsContent).
func (f *Fields) WithWholeRaw() *Fields {
	if f.All() {
		return f
	}
	g := *f
	g.raw = true
	g.rawReads = nil
	return &g
}

// WithDatasetKey returns f keeping, besides what it keeps, what a dataset
// fold that reads only each record's dataset key (Adapter.DatasetKey)
// reads of a record of format fm: the key's member whole
// (Adapter.DatasetKeyMember), the record whole when the adapter does not
// name it, nothing when the format has no key.
func (f *Fields) WithDatasetKey(fm Format) *Fields {
	a := Lookup(fm)
	switch {
	case f.All() || a == nil || a.DatasetKey == nil:
		return f
	case a.DatasetKeyMember == "":
		return f.WithWholeRaw()
	}
	g := *f
	g.raw = true
	if g.rawReads != nil {
		key := &RawTree{Kids: map[string]*RawTree{a.DatasetKeyMember: {All: true}}}
		g.rawReads = &rawReads{record: mergeRaw(g.rawReads.record, key), message: g.rawReads.message}
	}
	return &g
}

// StandsIn reports whether f builds a record's raw only as far as the rules
// read it (WithRaw): a member no rule reads is a stub, a value read only for
// its kind a stand-in, so the document's raw is not the record's.
func (f *Fields) StandsIn() bool { return f != nil && f.rawReads != nil }

// projection is chatReads' projection of kind k merged with what the
// rules read of raw: nil (the whole record) when they may read it whole;
// with views, the messages' objects as rawMessageViews makes them.
func (r *rawReads) projection(k int, views bool) *astjson.Projection {
	r.once.Do(func() {
		t := &RawTree{}
		if r.record != nil {
			t = r.record
		}
		if r.message != nil {
			t = mergeRaw(t, &RawTree{Kids: map[string]*RawTree{
				"messages":     {Kids: map[string]*RawTree{"*": r.message}},
				"interactions": {Kids: map[string]*RawTree{"*": r.message}},
				"input":        {Kids: map[string]*RawTree{"messages": {Kids: map[string]*RawTree{"*": r.message}}}},
			}})
		}
		for k := range r.proj {
			r.proj[k] = withRaw(chatProjections[k], t, false)
			r.viewed[k] = viewMessages(r.proj[k])
		}
	})
	if views {
		return r.viewed[k]
	}
	return r.proj[k]
}

// viewMessages is p with the objects rawMessageViews decodes as views
// marked so: each element of messages, of its tool_calls, and a call's
// function. A nil p (the record whole) becomes rawMessageViews itself.
func viewMessages(p *astjson.Projection) *astjson.Projection {
	if p == nil {
		return rawMessageViews
	}
	return viewPath(p, "messages", "*", "tool_calls", "*", "function")
}

// viewPath marks View on the objects along path ("*" an array's
// elements), after each "*" and at its end; a projection that is not an
// object (a stub, a shape, a string probe) is left as it is.
func viewPath(p *astjson.Projection, path ...string) *astjson.Projection {
	if p == nil {
		p = whole
		if len(path) > 0 && path[0] == "*" {
			p = &astjson.Projection{} // an array built whole: each element by Elem
		}
	}
	if len(path) == 0 {
		if !p.Object || p.Stub || p.Shape || p.Digest {
			return p
		}
		q := *p
		q.View = true
		return &q
	}
	q := *p
	if path[0] == "*" {
		if q.Object || q.Stub || q.Shape || q.Digest {
			return p // not an array's projection: leave it
		}
		q.Elem = viewPath(viewPath(q.Elem), path[1:]...)
		return &q
	}
	if !q.Object || q.Stub || q.Shape || q.Digest {
		return p
	}
	m, named := q.Members[path[0]]
	if !named {
		if !q.KeepOthers || q.Omit[path[0]] {
			return p
		}
		m = q.Others
	}
	members := make(map[string]*astjson.Projection, len(q.Members)+1)
	for k, v := range q.Members {
		members[k] = v
	}
	members[path[0]] = viewPath(m, path[1:]...)
	q.Members = members
	return &q
}

// mergeRaw is the tree that reads what a or b reads.
func mergeRaw(a, b *RawTree) *RawTree {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	if a.All || b.All {
		return &RawTree{All: true}
	}
	out := &RawTree{Same: a.Same || b.Same, Kids: map[string]*RawTree{}}
	for k, v := range a.Kids {
		out.Kids[k] = v
	}
	for k, v := range b.Kids {
		out.Kids[k] = mergeRaw(out.Kids[k], v)
	}
	return out
}

// withRaw merges a projection p of what the builder reads with t, what the
// rules read of the same value: the result builds at least what each of
// them does. dropped says p leaves the value out (a member an object
// projection neither names nor keeps).
func withRaw(p *astjson.Projection, t *RawTree, dropped bool) *astjson.Projection {
	q := withRawReads(p, t, dropped)
	if t != nil && t.Same {
		return sameify(q)
	}
	return q
}

// withRawReads is withRaw but for t.Same.
func withRawReads(p *astjson.Projection, t *RawTree, dropped bool) *astjson.Projection {
	switch {
	case t == nil && dropped:
		return nil // not asked for: the caller leaves it out
	case t == nil:
		return p
	case t.All || (p == nil && !dropped):
		return nil
	case dropped || p.Stub:
		return shapeOf(t)
	}
	q := *p
	// Its kind and emptiness: every projection but Stub keeps them, except
	// an object that keeps only the members it names.
	if q.Object && !q.KeepOthers {
		q.KeepOthers, q.Others = true, stub
	}
	if len(t.Kids) == 0 {
		return &q
	}
	elems := elemsOf(t)
	if elems != nil {
		// Dense keeps the first elements only; the rules read them all.
		if q.Dense > 0 {
			q.Dense, q.Elem = 0, withRaw(q.Elem, elems, false)
		} else if q.Elem != nil {
			q.Elem = withRaw(q.Elem, elems, false)
		}
	}
	if q.Object {
		// "*" is any member too (a Rego rule iterating an object): every
		// member is kept as it says, besides what the others say of theirs.
		star := t.Kids["*"]
		q.Members = map[string]*astjson.Projection{}
		for name, m := range p.Members {
			q.Members[name] = m
			if star != nil {
				q.Members[name] = withRaw(m, star, false)
			}
		}
		if star != nil {
			if p.KeepOthers {
				q.Others = withRaw(p.Others, star, false)
			} else {
				q.Others = withRaw(nil, star, true)
			}
			q.Omit = nil
		}
		for name, kid := range t.Kids {
			if name == "*" {
				continue
			}
			if star != nil {
				kid = mergeRaw(kid, star)
			}
			m, named := p.Members[name]
			if !named && p.KeepOthers {
				m, named = p.Others, true
			}
			if m := withRaw(m, kid, !named); m != nil || named || kid.All {
				q.Members[name] = m
			}
		}
	}
	return &q
}

// shapeOf builds what t reads of a value the builder does not read.
func shapeOf(t *RawTree) *astjson.Projection {
	if t.All {
		return nil
	}
	if t.Same && len(t.Kids) == 0 {
		return digest
	}
	p := &astjson.Projection{Shape: true}
	if elems := elemsOf(t); elems != nil {
		p.Elem = shapeOf(elems)
		if p.Elem == nil {
			p.Elem = whole
		}
	}
	star := t.Kids["*"]
	for name, kid := range t.Kids {
		if name == "*" {
			continue
		}
		if p.Members == nil {
			p.Object, p.KeepOthers, p.Others, p.Members = true, true, stub, map[string]*astjson.Projection{}
		}
		if star != nil {
			kid = mergeRaw(kid, star)
		}
		p.Members[name] = shapeOf(kid)
	}
	if star != nil { // any member of an object, as any element of an array
		p.Object, p.KeepOthers, p.Others = true, true, shapeOf(star)
		if p.Others == nil {
			p.Others = whole
		}
	}
	if t.Same {
		return sameify(p)
	}
	return p
}

// sameify is p building every value it leaves out or stands in for as a
// stand-in that keeps its equality (Digest), and whole what it builds in
// part: two values projected by the result are equal exactly when the
// values are. A stub or a stand-in of a kind becomes a digest; an object
// keeps every member (those it left out as digests); a list of numbers keeps
// every element; a probed string is kept.
func sameify(p *astjson.Projection) *astjson.Projection {
	return sameifyIn(p, map[*astjson.Projection]*astjson.Projection{})
}

func sameifyIn(p *astjson.Projection, done map[*astjson.Projection]*astjson.Projection) *astjson.Projection {
	if p == nil {
		return nil
	}
	if q, ok := done[p]; ok {
		return q
	}
	if p.Stub || p.Digest && !p.Object && p.Elem == nil && p.Dense == 0 ||
		p.Shape && !p.Object && p.Elem == nil && p.Dense == 0 {
		return digest
	}
	q := *p
	done[p] = &q
	if q.Shape {
		// What the projection does not describe (a value of another
		// kind) was a stand-in of its kind: a digest now.
		q.Shape, q.Digest = false, true
	}
	q.Probe, q.Needles = false, nil
	q.Dense = 0
	q.Elem = sameifyIn(p.Elem, done)
	if q.Object {
		if !q.KeepOthers {
			q.KeepOthers, q.Others = true, digest
		} else {
			q.Others = sameifyIn(p.Others, done)
		}
		q.Omit = nil // an omitted member is one of the others
		q.Members = make(map[string]*astjson.Projection, len(p.Members))
		for k, m := range p.Members {
			q.Members[k] = sameifyIn(m, done)
		}
	}
	return &q
}

// digest builds a value as a stand-in that keeps its equality.
var digest = &astjson.Projection{Digest: true}

// whole builds a value whole where a nil Elem would mean "no Elem".
var whole = &astjson.Projection{Object: true, KeepOthers: true}

// elemsOf is what t reads of each element: its "*" and any index it names
// (an index read is some element's), nil when none.
func elemsOf(t *RawTree) *RawTree {
	var out *RawTree
	for name, kid := range t.Kids {
		if name == "*" || isIndex(name) {
			out = mergeRaw(out, kid)
		}
	}
	return out
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
