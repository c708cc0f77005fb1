package yamlrule

// The per-document state of the relational YAML rules: partner sets built
// once per document and shared by the rules that join the same set, the
// index of message roles, and pooled environments. An Evaluator keeps one
// relCache and resets it per document, so its memory is reused.

import (
	"fmt"
	"hash/maphash"
	"slices"
	"sync"

	"github.com/chatlint/chatlint/engine/policy/builtins"
	"github.com/open-policy-agent/opa/v1/ast"
)

// only returns the messages of role, or nil (all) when role is "".
func (c *Cache) only(role string) []int {
	if role == "" {
		return nil
	}
	return c.messagesOf(role)
}

// Cache holds the partner sets of one document. An Evaluator keeps one
// and resets it per document, so that the sets' memory is reused.
type Cache struct {
	doc  ast.Object
	sets []*partnerSet // by joinSpec.id; nil when not built for this document
	used []int         // the ids built for this document
	busy []bool        // by joinSpec.id: the set is being built
	Err  error         // the first error of this document (a let that depends on itself)
	// lastTools is the worker's memory of the last tools array the
	// tools-only rules saw (memo.go); it outlives reset.
	LastTools LastTools
	free      []*partnerSet
	envFree   []*relEnv
	walk      builtins.TruthyWalk // truthy_keys' walker, its buffers reused
	// roles[i] is the role of message i (built on first use); byRole the
	// indexes of the messages of each role asked for
	roles    []string
	roleVals []ast.Value // the role of message i, nil when absent (hoist.go)
	filters  []roleIndex // by roleFilter.id: the messages whose role passes it
	// classes are the document's distinct role strings and their messages,
	// roleClass[i] the class of message i (roles.go)
	classes   []roleClass
	roleClass []uint8
	oddRoles  bool        // some message's role is in no class
	lists     []roleIndex // by member slot: the messages whose member is a non-empty list (lists.go)
	ints      [][]int     // buffers of narrow, the first nints in use for this document
	nints     int
	rolesDone bool
	byRole    map[string]*roleIndex
	gen       int // counts documents: a roleIndex of another gen is stale
	// shared[q][i] is the partners of shared query q for element i
	// (shared.go), valid when its gen is gen+1
	shared []sharedRow
	// walks[w] is the elements of walk w (walks.go); walksUsed the walks
	// of this document
	walks     []*walkList
	walksUsed []int
	facts     facts // the document's format, mode and profile (eval.go)
	// contexts are the document's messages, tools and entries arrays
	// (ctxList...), read for its elements' contexts when contextsGen is
	// gen+1 (rel.go)
	contexts    [3]*ast.Array
	contextsGen int
	members     memberRows
	// rows are the lets of the rules other rules join, per element
	// (rel_rows.go); rowsUsed those of this document
	rows     map[*Rule]*letRows
	rowsUsed []*letRows
}

type roleIndex struct {
	gen int
	ix  []int
	buf []int // ix's own storage, when it is not a role class's
}

var keyRole = ast.StringTerm("role")

// messagesOf returns the indexes of the document's messages whose role is
// role.
func (c *Cache) messagesOf(role string) []int {
	ri := c.byRole[role]
	if ri != nil && ri.gen == c.gen {
		return ri.ix
	}
	c.loadRoles()
	if ri == nil {
		if c.byRole == nil {
			c.byRole = map[string]*roleIndex{}
		}
		ri = &roleIndex{}
		c.byRole[role] = ri
	}
	ri.gen = c.gen
	for k := range c.classes {
		if c.classes[k].role == role { // every message of the role is in its class
			ri.ix = c.classes[k].ix // the index's own: nobody writes to it
			return ri.ix
		}
	}
	ri.buf = ri.buf[:0]
	if c.oddRoles {
		for i, r := range c.roles {
			if r == role {
				ri.buf = append(ri.buf, i)
			}
		}
	}
	if ri.buf == nil {
		ri.buf = []int{} // never nil: nil means every message
	}
	ri.ix = ri.buf
	return ri.ix
}

// loadRoles reads the role of every message of the document, once.
func (c *Cache) loadRoles() {
	if c.rolesDone {
		return
	}
	c.rolesDone = true
	clear(c.roleVals)
	c.roles, c.roleVals = c.roles[:0], c.roleVals[:0]
	c.resetRoles()
	t := c.doc.Get(keyMessages)
	if t == nil {
		return
	}
	arr, ok := t.Value.(*ast.Array)
	if !ok {
		return
	}
	for i := 0; i < arr.Len(); i++ {
		var r string
		var v ast.Value
		if o, ok := arr.Elem(i).Value.(ast.Object); ok {
			if rt := o.Get(keyRole); rt != nil {
				v = rt.Value
				s, _ := rt.Value.(ast.String)
				r = string(s)
			}
		}
		c.roles = append(c.roles, r)
		c.roleVals = append(c.roleVals, v)
		c.classify(i, v)
	}
}

var keyMessages = ast.StringTerm("messages")

// Reset empties the cache for the next document.
func (c *Cache) Reset(doc ast.Object) {
	c.doc = doc
	c.rolesDone = false
	c.nints = 0
	clear(c.roleVals) // drop references to the document
	c.resetRoles()
	c.members.reset()
	c.contexts = [3]*ast.Array{} // drop references to the document
	c.resetWalks()
	c.resetRows()
	c.gen++
	for _, id := range c.used {
		ps := c.sets[id]
		if ps.walked { // the elements are a walk's, which resetWalks drops
			ps.els, ps.walked = nil, false
		}
		clear(ps.els) // drop references to the document
		clear(ps.keys)
		clear(ps.differ)
		ps.els, ps.keys, ps.differ = ps.els[:0], ps.keys[:0], ps.differ[:0]
		ps.index.reset()
		ps.groups.reset()
		ps.steps = 0
		clear(ps.aggs)
		ps.aggs = ps.aggs[:0]
		c.free = append(c.free, ps)
		c.sets[id] = nil
	}
	c.used = c.used[:0]
	c.Err = nil
}

// Drop is Reset(nil) that also lets go of the buffers the cache keeps from
// document to document (partner sets, role and member indexes, rule
// environments): after a long session they hold as many elements as it
// has messages, and what comes next (the Rego rules of the same document,
// or the next, small, documents) reads none of them. The next document
// grows them again from nothing.
func (c *Cache) Drop() {
	c.Reset(nil)
	c.sets, c.busy, c.free, c.envFree = nil, nil, nil, nil
	c.roles, c.roleVals, c.filters, c.lists, c.byRole = nil, nil, nil, nil, nil
	c.classes, c.roleClass = nil, nil
	c.ints, c.nints = nil, 0
	c.members = memberRows{}
	c.shared = nil
	c.walks, c.walksUsed = nil, nil
	c.rows = nil
}

type partnerSet struct {
	els    []elem
	walked bool        // els are a shared walk's elements (walks.go), not the set's own
	keys   []ast.Value // the theirs values of each partner, len(theirs) per partner
	differ []ast.Value // the differ values of each partner, len(differTheirs) per partner
	index  keyIndex
	aggs   []aggMemo // $name.max values of the whole set (session.go)
	groups keyGroups // the partners grouped by key (groups.go), built on first use
	steps  int       // partners partnersAt walked to, until the set is grouped
}

// getEnv returns an environment for rule r from the cache's free list;
// putEnv gives it back when the rule is done with the document.
func (c *Cache) getEnv(r *Rule) *relEnv {
	var env *relEnv
	if n := len(c.envFree); n > 0 {
		env, c.envFree = c.envFree[n-1], c.envFree[:n-1]
	} else {
		env = &relEnv{}
	}
	env.r, env.cache, env.el = r, c, elem{}
	env.row, env.ord = nil, -1
	env.sc = newScope(c.doc)
	env.sc.mem, env.sc.rel = &c.members, env
	env.memo = slices.Grow(env.memo[:0], len(r.rel.lets))[:len(r.rel.lets)]
	clear(env.memo)
	env.memoGen = 1 // the cleared entries (gen 0) are stale
	return env
}

func (c *Cache) putEnv(env *relEnv) {
	clear(env.els) // drop references to the document
	env.els = env.els[:0]
	env.first, env.el, env.sc = nil, elem{}, scope{}
	env.row, env.ord = nil, -1
	clear(env.memo)
	env.instants.reset()
	c.envFree = append(c.envFree, env)
}

func (c *Cache) set(j *joinSpec) *partnerSet {
	if j.id < len(c.sets) && c.sets[j.id] != nil {
		return c.sets[j.id]
	}
	for j.id >= len(c.busy) {
		c.busy = append(c.busy, false)
	}
	if c.busy[j.id] { // the set's where reads a let that joins this set
		c.fail(fmt.Errorf("the partners of %s depend on themselves", j.sig))
		return &partnerSet{}
	}
	c.busy[j.id] = true
	defer func() { c.busy[j.id] = false }()
	var ps *partnerSet
	if n := len(c.free); n > 0 {
		ps, c.free = c.free[n-1], c.free[:n-1]
	} else {
		ps = &partnerSet{}
	}
	add := func(v ast.Value, sc scope) {
		if !allHold(j.where, v, &sc) {
			return
		}
		ps.keys = appendValues(ps.keys, v, j.theirs, &sc)
		ps.differ = appendValues(ps.differ, v, j.differTheirs, &sc)
		ps.els = append(ps.els, elemOf(v, &sc))
	}
	switch {
	case yamlShortcuts && j.walk != nil:
		ps.els, ps.walked = c.walked(j.walk), true
		if len(j.theirs) > 0 || len(j.differTheirs) > 0 {
			sc := newScope(c.doc)
			sc.mem = &c.members
			for i := range ps.els {
				el := &ps.els[i]
				el.fill(&sc, c)
				ps.keys = appendValues(ps.keys, el.v, j.theirs, &sc)
				ps.differ = appendValues(ps.differ, el.v, j.differTheirs, &sc)
			}
		}
	case j.ruleRef != nil:
		env := c.getEnv(j.ruleRef)
		els := j.ruleRef.collect(env)
		rows := c.rowsOf(j.ruleRef, len(els))
		for i := range els {
			add(els[i].v, *env.atRow(&els[i], i, rows))
		}
		c.putEnv(env)
	default:
		sc := newScope(c.doc)
		sc.mem = &c.members
		walkSteps(j.given, c.doc, j.given, sc, c.narrow(j.given, c.only(j.role)), add)
	}
	if k := len(j.theirs); k > 0 {
		ps.index.reserve(len(ps.els))
		for i := range ps.els {
			ps.index.add(hashValues(ps.keys[i*k : (i+1)*k]))
		}
	}
	if j.id >= len(c.sets) {
		c.sets = append(c.sets, make([]*partnerSet, j.id+1-len(c.sets))...)
	}
	c.sets[j.id] = ps
	c.used = append(c.used, j.id)
	return ps
}

// appendValues appends the values of paths on v to buf.
func appendValues(buf []ast.Value, v ast.Value, paths [][]seg, sc *scope) []ast.Value {
	for _, p := range paths {
		buf = append(buf, lookupValue(v, p, sc))
	}
	return buf
}

// hashValues hashes a key; false when a value is absent.
func hashValues(vs []ast.Value) (uint64, bool) {
	var h uint64 = 17
	for _, v := range vs {
		if v == nil {
			return 0, false
		}
		h = h*31 + keyHash(v)
	}
	return h, true
}

// keySeed seeds the hashes of the strings of keys: they are compared
// within one run only.
var keySeed = maphash.MakeSeed()

// keyHash is a hash of v that equal values (sameValue) share. A string
// equals only a string, so it is hashed on its own (maphash, without
// xxhash's call and setup); an integer of up to 15 digits (an index, a
// turn) gets the hash ast.Number.Hash gives it, its value, without the
// float parse Hash makes of any number of four digits or more; anything
// else its Hash.
func keyHash(v ast.Value) uint64 {
	switch x := v.(type) {
	case ast.String:
		return maphash.String(keySeed, string(x))
	case ast.Number:
		if n, ok := smallInt(string(x)); ok {
			return uint64(n)
		}
	}
	return uint64(v.Hash())
}

// smallInt reads s when it is 1 to 15 decimal digits.
func smallInt(s string) (int, bool) {
	if len(s) == 0 || len(s) > 15 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			return 0, false
		}
		n = n*10 + int(c)
	}
	return n, true
}

func equalValues(a, b []ast.Value) bool {
	for i := range a {
		if a[i] == nil || b[i] == nil || !sameValue(a[i], b[i]) {
			return false
		}
	}
	return true
}

// fail records the first error of the document.
func (c *Cache) fail(err error) {
	if c.Err == nil {
		c.Err = err
	}
}

// setIDs numbers the distinct partner sets (joinSpec.sig) of every compiled
// rule, so that a document's sets are found by index rather than by
// hashing the signature on every lookup.
var setIDs = struct {
	sync.Mutex
	m map[string]int
}{m: map[string]int{}}

func setID(sig string) int {
	setIDs.Lock()
	defer setIDs.Unlock()
	id, ok := setIDs.m[sig]
	if !ok {
		id = len(setIDs.m)
		setIDs.m[sig] = id
	}
	return id
}
