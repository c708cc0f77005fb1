package yamlrule

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy/builtins"
	"github.com/chatlint/chatlint/engine/policy/pack"
	"github.com/chatlint/chatlint/engine/rule"
)

var (
	keyProfileTerm = ast.StringTerm("profile")
	keyLineTerm    = ast.StringTerm("line")
)

// scope is where the walk of a `given` path stands: the element, the
// enclosing message, tool call, tool and entry, and the element's JSON
// Pointer when it is known.
type scope struct {
	doc     ast.Object
	message ast.Object
	tool    ast.Object
	entry   ast.Object
	rel     *relEnv     // a relational rule's sets and group (rel.go), nil otherwise
	mem     *memberRows // the members of the document's messages already looked up, or nil
	ptr     string
	// given, when set, is the path a plain rule's walk follows, and at the
	// positions it took at its [*] steps: ptr is then computed only when a
	// finding asks for it (pointer.go)
	given *[]step
	at    [lazyPtrDepth]int32
	// int32 rather than int: a walk copies the scope for every element
	msgIdx  int32
	callIdx int32
	toolIdx int32
	entIdx  int32
	pos     int32 // the element's position in the list the walk took it from ($index)
	row     int32 // the element's row in mem: 0 the document, i+1 message i, -1 another object
	inRaw   bool  // the element lies inside a raw record, so ptr follows it
	depth   uint8
}

// Eval runs the rule over one document and appends its hits.
func (r *Rule) Eval(doc ast.Object, hits []Hit) []Hit { return r.EvalIn(doc, nil, hits) }

// EvalIn is Eval with the document's partner sets, which the relational
// rules of one evaluation share (nil: the rule builds its own).
func (r *Rule) EvalIn(doc ast.Object, cache *Cache, hits []Hit) []Hit {
	if (len(r.formats) > 0 || r.mode != "" || len(r.Profiles) > 0) && !r.appliesTo(docFacts(doc, cache)) {
		return hits
	}
	if r.rel != nil {
		return r.evalRel(doc, cache, hits)
	}
	sc := scope{doc: doc, msgIdx: -1, callIdx: -1, toolIdx: -1, entIdx: -1}
	if r.lazyPtr && yamlShortcuts {
		sc.given = &r.given
	}
	if cache != nil {
		sc.mem = &cache.members
	}
	if yamlShortcuts && !docHolds(r.hoisted.where.doc, doc, sc.mem) { // hoist.go
		return hits
	}
	only, where := r.only(cache)
	return r.walk(doc, r.given, sc, only, where, hits)
}

// facts are the members of a document that say which rules apply to it.
type facts struct {
	gen                   int // Cache.gen+1 of the document they are of
	format, mode, profile string
}

// docFacts reads doc's facts, once per document when the cache holds it:
// every rule that names formats, a mode or profiles asks.
func docFacts(doc ast.Object, cache *Cache) *facts {
	if cache == nil || cache.doc != doc {
		return &facts{format: stringOf(doc.Get(document.KeyFormat)), mode: stringOf(doc.Get(document.KeyMode)),
			profile: stringOf(doc.Get(keyProfileTerm))}
	}
	f := &cache.facts
	if f.gen != cache.gen+1 {
		*f = facts{gen: cache.gen + 1, format: stringOf(doc.Get(document.KeyFormat)), mode: stringOf(doc.Get(document.KeyMode)),
			profile: stringOf(doc.Get(keyProfileTerm))}
	}
	return f
}

// appliesTo reports whether r applies to a document of these facts: its
// formats, mode and profiles.
func (r *Rule) appliesTo(f *facts) bool {
	switch {
	case len(r.formats) > 0 && !slices.Contains(r.formats, f.format):
		return false
	case r.mode != "" && f.mode != r.mode:
		return false
	case len(r.Profiles) > 0 && !r.AppliesUnder(pack.ProfileOf(f.profile)):
		return false
	}
	return true
}

// walk follows steps from v to the elements and checks where (the rule's,
// or what the shortcuts leave of it) and assert on each.
func (r *Rule) walk(v ast.Value, steps []step, sc scope, only []int, where []check, hits []Hit) []Hit {
	if len(steps) == 0 {
		return r.check(v, &sc, where, hits)
	}
	st := &steps[0]
	o := asObject(v)
	if o == nil {
		return hits
	}
	t := memberAt(o, &st.seg, &sc, sc.row)
	if t == nil {
		return hits
	}
	next := sc
	next.row = -1 // a member's value is neither the document nor a message
	switch {
	case sc.given != nil: // the pointer is built when a finding needs it
		next.inRaw = sc.inRaw || st.kind == stepRaw
	case sc.inRaw:
		next.ptr = sc.ptr + "/" + builtins.EscapePointer(st.field)
	case st.kind == stepRaw:
		next.inRaw = true
	}
	if !st.each {
		return r.walk(t.Value, steps[1:], next, only, where, hits)
	}
	arr, ok := t.Value.(*ast.Array)
	if !ok {
		return hits
	}
	top := len(steps) == len(r.given)
	n := arr.Len()
	if top && only != nil {
		n = len(only)
	}
	// el is the element's scope, set anew for each element: the members
	// set below are set by every element of this list alike.
	el := next
	if el.given != nil {
		el.depth++
	}
	for k := 0; k < n; k++ {
		i := k
		if top && only != nil {
			if i = only[k]; i >= arr.Len() {
				break
			}
		}
		el.pos = int32(i)
		ev := arr.Elem(i).Value
		if el.given != nil {
			el.at[next.depth] = int32(i)
		}
		if el.inRaw {
			if el.given == nil {
				el.ptr = next.ptr + "/" + strconv.Itoa(i)
			}
		} else {
			eo := asObject(ev)
			if el.given == nil {
				el.ptr = next.ptr
				if p, ok := stringField(eo, document.KeyPath); ok {
					el.ptr = p
				}
			}
			el.enter(st.kind, top, sc.message != nil, eo, i)
		}
		if len(steps) == 1 { // the element itself
			hits = r.check(ev, &el, where, hits)
			continue
		}
		hits = r.walk(ev, steps[1:], el, nil, where, hits)
	}
	return hits
}

// check applies where and assert to one element. An assertion on a path
// below one that already failed is not reported, nor one whose value lies at
// or below the JSON Pointer of one that failed: a definition that is not an
// object gives one finding, not one per member it lacks.
func (r *Rule) check(v ast.Value, sc *scope, where []check, hits []Hit) []Hit {
	if !allHold(where, v, sc) { // values only: building their pointers would be wasted
		return hits
	}
	return r.asserts(v, sc, hits)
}

// asserts reports the failing assertions of an element that passed where.
func (r *Rule) asserts(v ast.Value, sc *scope, hits []Hit) []Hit {
	var failed []check
	var failedPtrs []string
	for _, c := range r.assert {
		if slices.ContainsFunc(failed, c.below) {
			continue
		}
		if len(failedPtrs) == 0 { // the pointer is needed only when the assertion fails
			if c.cond.passes(lookupValue(v, c.path, sc), v, sc) {
				continue
			}
		}
		val, ptr := resolve(v, c.path, sc)
		if slices.ContainsFunc(failedPtrs, func(p string) bool { return ptr == p || strings.HasPrefix(ptr, p+"/") }) {
			continue // a normalized member (parameters) inside one that failed (function)
		}
		ok, why, explained := c.cond.explain(val, v, sc)
		if ok {
			continue
		}
		failed = append(failed, c)
		if ptr != "" {
			failedPtrs = append(failedPtrs, ptr)
		}
		failure := c.text + " " + why
		if why != "must be present" && !explained {
			failure += found(val)
		}
		h := pack.NewHit(r.ID, r.Pack, r.Severity, r.render(v, sc, failure))
		h.Target = targetOfScope(sc)
		h.Path = ptr
		if r.Scope == rule.ScopeDataset { // a dataset element names its line
			if o, ok := v.(ast.Object); ok {
				if t := o.Get(keyLineTerm); t != nil {
					if n, ok := t.Value.(ast.Number); ok {
						h.Line, _ = n.Int()
					}
				}
			}
		}
		hits = append(hits, h)
	}
	return hits
}

// resolve looks a dotted path up from the element ("$" or an empty path is
// the element itself). A first segment of $message, $tool, $entry or
// $document (or the same without $, when the element has no such member)
// starts from that context instead. It also returns the JSON Pointer of the
// value when it can be known.
func resolve(v ast.Value, path []seg, sc *scope) (ast.Value, string) {
	if sc.rel != nil && len(path) > 0 {
		if v, ok := sc.rel.virtual(path); ok {
			return v, ""
		}
	}
	if len(path) > 0 && path[0].name == "$index" { // the element's position in its list
		return ast.InternedValue(int(sc.pos)), ""
	}
	ptr, known := sc.pointer(), sc.inRaw
	if len(path) > 0 {
		head := path[0].name
		alias := strings.TrimPrefix(head, "$")
		o, _ := v.(ast.Object)
		if head != alias || o == nil || member(o, &path[0], sc) == nil {
			if ctx := sc.context(alias); ctx != nil {
				v, path, known = ctx, path[1:], false
				if p, ok := stringField(ctx, document.KeyPath); ok {
					ptr = p
				}
			}
		}
	}
	if !known && len(path) > 0 {
		o, _ := v.(ast.Object)
		switch path[0].name {
		case "raw":
			if p, ok := stringField(o, document.KeyPath); ok {
				ptr, known = p, true
			} else if o != nil && o == sc.doc {
				ptr, known = "", true // the document's raw record is the line itself
			}
		default: // a normalized member with its pointer beside it: function, parameters
			if p, ok := stringField(o, path[0].pathKey); ok {
				ptr, known = p, true
			}
		}
		if known {
			t := member(o, &path[0], sc)
			if t == nil { // absent, but where it would be is known
				for _, s := range path[1:] {
					ptr += "/" + builtins.EscapePointer(s.name)
				}
				return nil, ptr
			}
			v = t.Value
			path = path[1:]
		}
	}
	for i := range path {
		s := &path[i]
		if known {
			ptr += "/" + builtins.EscapePointer(s.name)
		}
		switch c := v.(type) {
		case ast.Object:
			t := member(c, s, sc) // the element's rows only match an object they hold
			if t == nil {
				return nil, ptr
			}
			v = t.Value
		case *ast.Array:
			if s.index < 0 || s.index >= c.Len() {
				return nil, ptr
			}
			v = c.Elem(s.index).Value
		default:
			return nil, ptr
		}
	}
	return v, ptr
}

// found says what a failing assertion saw, kept short.
func found(v ast.Value) string {
	switch v.(type) {
	case nil:
		return " (it is missing)"
	case ast.Object:
		return " (it is an object)"
	case *ast.Array:
		return " (it is an array)"
	}
	s := v.String()
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return " (it is " + s + ")"
}

func (sc *scope) context(name string) ast.Object {
	switch name {
	case "message":
		return sc.message
	case "tool":
		return sc.tool
	case "entry":
		return sc.entry
	case "document":
		return sc.doc
	case "previous":
		return sc.previous()
	}
	return nil
}

// piece is a literal part of a message template, or a {{path}} to fill in.
type piece struct {
	text   string
	path   []seg
	tmpl   bool   // a {{…}} placeholder rather than literal text
	filter string // "q" or "type" for {{q …}}, {{type …}}
}

func parseTemplate(s string) []piece {
	var out []piece
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			break
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			break
		}
		if i > 0 {
			out = append(out, piece{text: s[:i]})
		}
		name := strings.TrimSpace(s[i+2 : i+j])
		var filter string
		if f, rest, ok := strings.Cut(name, " "); ok && knownFilter(f) {
			// {{q path}}: the value quoted, as Rego's sprintf %q writes it; {{type path}}: its JSON type
			filter, name = f, strings.TrimSpace(rest)
		}
		out = append(out, piece{text: name, path: parsePath(name), tmpl: true, filter: filter})
		s = s[i+j+2:]
	}
	if s != "" {
		out = append(out, piece{text: s})
	}
	return out
}

func (r *Rule) render(v ast.Value, sc *scope, failure string) string {
	if len(r.message) == 0 {
		return failure
	}
	return renderPieces(r.message, v, sc, failure)
}

func renderPieces(message []piece, v ast.Value, sc *scope, failure string) string {
	var b strings.Builder
	for _, p := range message {
		switch {
		case !p.tmpl:
			b.WriteString(p.text)
		case p.text == "failure":
			b.WriteString(failure)
		default:
			val, _ := resolve(v, p.path, sc)
			if s, ok := renderFilter(p.filter, val); ok { // json, nth, words, q:N (session.go)
				b.WriteString(s)
				continue
			}
			switch x := val.(type) {
			case nil:
				if p.filter == "q" {
					b.WriteString(`""`)
				}
			case ast.String:
				switch p.filter {
				case "q":
					b.WriteString(strconv.Quote(string(x)))
				case "type":
					b.WriteString("string")
				default:
					b.WriteString(string(x))
				}
			default:
				if p.filter != "" {
					b.WriteString(filtered(p.filter, x))
					continue
				}
				b.WriteString(x.String())
			}
		}
	}
	return b.String()
}

func stringField(o ast.Object, k *ast.Term) (string, bool) {
	if o == nil {
		return "", false
	}
	t := o.Get(k)
	if t == nil {
		return "", false
	}
	s, ok := t.Value.(ast.String)
	return string(s), ok
}

func stringOf(t *ast.Term) string {
	if t == nil {
		return ""
	}
	s, _ := t.Value.(ast.String)
	return string(s)
}

// targetOfScope is the element a scope stands at, as a finding names it.
func targetOfScope(sc *scope) document.Target {
	return document.TargetOf(int(sc.msgIdx), int(sc.callIdx), int(sc.toolIdx), int(sc.entIdx))
}

// filtered renders a value that is not a string for {{q …}} (as Rego's
// sprintf %q does: an integer as a quoted character, anything else as its
// JSON text quoted) or {{type …}}.
func filtered(filter string, v ast.Value) string {
	if filter == "type" {
		return typeName(v)
	}
	if n, ok := v.(ast.Number); ok && !strings.ContainsAny(string(n), ".eE") {
		if i, ok := n.Int64(); ok { // fmt's %q of an integer
			r := utf8.RuneError
			if i >= 0 && i <= utf8.MaxRune {
				r = rune(i)
			}
			return strconv.QuoteRune(r)
		}
	}
	return strconv.Quote(v.String())
}

// enter sets what el names as its message, tool or entry (with its index),
// or its tool call index, when a walk's step of kind stands at element i,
// eo: top says the step walks a list of the document itself, inMessage
// that the walk is inside a message.
func (el *scope) enter(kind stepKind, top, inMessage bool, eo ast.Object, i int) {
	switch {
	case kind == stepMessages && top:
		el.message, el.msgIdx, el.row = eo, int32(i), int32(i+1)
	case kind == stepTools && top:
		el.tool, el.toolIdx = eo, int32(i)
	case kind == stepEntries && top:
		el.entry, el.entIdx = eo, int32(i)
	case kind == stepToolCalls && inMessage:
		el.callIdx = int32(i)
	}
}
