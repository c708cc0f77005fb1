package astjson

import (
	"sync/atomic"
	"unsafe"

	"github.com/open-policy-agent/opa/v1/ast"
)

// An ObjectView is a decoded JSON object held as its members in the order
// the record gives them, for objects that are many, small and read by a
// few lookups each: the messages of a chat record. OPA's object makes a Go
// map per object and hashes every key on insert and again on every Get;
// a view keeps the member terms in one slice, answers Get by comparing
// keys (the decoder's keys are interned terms, so mostly by pointer), and
// builds the OPA object, with the same members and the same terms, the
// first time anything else is asked of it.
//
// A view is an ast.Object as document.MessageValue is (see there): it
// embeds the interface, holding the built object once there is one, and
// overrides every exported method of Object and Value. OPA's *object
// methods do not know it (object.Compare(view) panics), so code that hands
// a value that may hold views to OPA's Compare, Equal or to Rego calls
// document.Plain first. The decoder builds views only where a Projection asks
// (Projection.View); a view whose members hold views builds them too when
// it is built, so its object holds none.
type ObjectView struct {
	// viewBuilt holds the built object, nil until something needs it; it is
	// set once, atomically (Materialize). A pointer rather than the
	// interface and a sync.Once: a session holds hundreds of thousands
	// of views, most never built. Embedded, it gives the view ast.Object's
	// unexported method, as embedding the interface did.
	*viewBuilt
	kvs      [][2]*ast.Term // the members, in the view's own block (allocView)
	hash     int
	inserted bool // a member was inserted: the built object answers
	nested   bool // a member is a view, or an array holding views
}

// viewBuilt is a view's built object.
type viewBuilt struct{ ast.Object }

// Built reports whether the view's object was built (Materialize): the
// tests of readers that must not build it ask.
func (v *ObjectView) Built() bool { return v.object() != nil }

// object is the view's built object, nil before Materialize.
func (v *ObjectView) object() ast.Object {
	b := (*viewBuilt)(atomic.LoadPointer((*unsafe.Pointer)(unsafe.Pointer(&v.viewBuilt))))
	if b == nil {
		return nil
	}
	return b.Object
}

// A view of up to sixteen members is allocated with its members, in one
// block the size of both: a view with room for a fixed number inline
// wasted that room on the many of fewer members and made a second
// allocation for those of more (a Codex entry has six members, a Claude
// Code entry ten or eleven), and room for more than it holds is wasted on
// every entry of a long session.
type (
	viewOf1 struct {
		ObjectView
		kv [1][2]*ast.Term
	}
	viewOf2 struct {
		ObjectView
		kv [2][2]*ast.Term
	}
	viewOf3 struct {
		ObjectView
		kv [3][2]*ast.Term
	}
	viewOf4 struct {
		ObjectView
		kv [4][2]*ast.Term
	}
	viewOf5 struct {
		ObjectView
		kv [5][2]*ast.Term
	}
	viewOf6 struct {
		ObjectView
		kv [6][2]*ast.Term
	}
	viewOf7 struct {
		ObjectView
		kv [7][2]*ast.Term
	}
	viewOf8 struct {
		ObjectView
		kv [8][2]*ast.Term
	}
	viewOf9 struct {
		ObjectView
		kv [9][2]*ast.Term
	}
	viewOf10 struct {
		ObjectView
		kv [10][2]*ast.Term
	}
	viewOf11 struct {
		ObjectView
		kv [11][2]*ast.Term
	}
	viewOf12 struct {
		ObjectView
		kv [12][2]*ast.Term
	}
	viewOf13 struct {
		ObjectView
		kv [13][2]*ast.Term
	}
	viewOf14 struct {
		ObjectView
		kv [14][2]*ast.Term
	}
	viewOf15 struct {
		ObjectView
		kv [15][2]*ast.Term
	}
	viewOf16 struct {
		ObjectView
		kv [16][2]*ast.Term
	}
)

// allocView allocates a view with room for n members, its kvs of length n.
func allocView(n int) *ObjectView {
	switch n {
	case 0:
		return &ObjectView{}
	case 1:
		w := new(viewOf1)
		w.kvs = w.kv[:]
		return &w.ObjectView
	case 2:
		w := new(viewOf2)
		w.kvs = w.kv[:]
		return &w.ObjectView
	case 3:
		w := new(viewOf3)
		w.kvs = w.kv[:]
		return &w.ObjectView
	case 4:
		w := new(viewOf4)
		w.kvs = w.kv[:]
		return &w.ObjectView
	case 5:
		w := new(viewOf5)
		w.kvs = w.kv[:]
		return &w.ObjectView
	case 6:
		w := new(viewOf6)
		w.kvs = w.kv[:]
		return &w.ObjectView
	case 7:
		w := new(viewOf7)
		w.kvs = w.kv[:]
		return &w.ObjectView
	case 8:
		w := new(viewOf8)
		w.kvs = w.kv[:]
		return &w.ObjectView
	case 9:
		w := new(viewOf9)
		w.kvs = w.kv[:]
		return &w.ObjectView
	case 10:
		w := new(viewOf10)
		w.kvs = w.kv[:]
		return &w.ObjectView
	case 11:
		w := new(viewOf11)
		w.kvs = w.kv[:]
		return &w.ObjectView
	case 12:
		w := new(viewOf12)
		w.kvs = w.kv[:]
		return &w.ObjectView
	case 13:
		w := new(viewOf13)
		w.kvs = w.kv[:]
		return &w.ObjectView
	case 14:
		w := new(viewOf14)
		w.kvs = w.kv[:]
		return &w.ObjectView
	case 15:
		w := new(viewOf15)
		w.kvs = w.kv[:]
		return &w.ObjectView
	case 16:
		w := new(viewOf16)
		w.kvs = w.kv[:]
		return &w.ObjectView
	}
	return &ObjectView{kvs: make([][2]*ast.Term, n)}
}

// NewObjectView is the view of members kvs, whose keys are distinct
// strings (as ast.NewObject is given them), for an object a builder makes
// that only the YAML evaluator reads (document's normalized tool calls).
func NewObjectView(kvs ...[2]*ast.Term) *ObjectView {
	v := allocView(len(kvs))
	copy(v.kvs, kvs)
	v.init(v.kvs, objectHash(kvs))
	return v
}

// objectHash is the hash OPA's object of members kvs has: the sum of its
// keys' and values' hashes.
func objectHash(kvs [][2]*ast.Term) int {
	h := 0
	for _, kv := range kvs {
		h += kv[0].Value.Hash() + kv[1].Value.Hash()
	}
	return h
}

// newObjectView is the view of members kvs (deduplicated, as ast.NewObject
// is given them) whose hash (objectHash) is hash, which it copies into the
// view's own block (allocView). Not carved from the decoder's slabs: a slab
// starts at sixteen views, and a session holds its lines' views, a few
// each, to its end.
func (s *slabs) newObjectView(kvs [][2]*ast.Term, hash int) *ObjectView {
	v := allocView(len(kvs))
	copy(v.kvs, kvs)
	v.init(v.kvs, hash)
	return v
}

// init makes v the view of members kvs, which it keeps, of hash
// objectHash(kvs): the messages array asks every element's hash when it is
// built, and the decoder sums it from hashes it mostly knows.
func (v *ObjectView) init(kvs [][2]*ast.Term, hash int) {
	v.kvs = kvs
	v.hash = hash
	for _, kv := range kvs {
		v.nested = v.nested || holdsView(kv[1].Value)
	}
}

// holdsView reports whether x is a view or an array with a view among its
// elements: where a projection puts views (a message's tool calls, a
// call's function).
func holdsView(x ast.Value) bool {
	switch x := x.(type) {
	case *ObjectView:
		return true
	case *ast.Array:
		for i := 0; i < x.Len(); i++ {
			if _, ok := x.Elem(i).Value.(*ObjectView); ok {
				return true
			}
		}
	}
	return false
}

// plainTerm is t with the views in its value (holdsView) replaced by their
// objects.
func plainTerm(t *ast.Term) *ast.Term {
	switch x := t.Value.(type) {
	case *ObjectView:
		return ast.NewTerm(x.Materialize())
	case *ast.Array:
		if p := PlainArray(x); p != x {
			return ast.NewTerm(p)
		}
	}
	return t
}

// Materialize returns the OPA object of the view's members, building it on
// first use; the views among its members are built too, so the object holds
// none.
func (v *ObjectView) Materialize() ast.Object {
	if o := v.object(); o != nil {
		return o
	}
	kvs := v.kvs
	if v.nested {
		kvs = make([][2]*ast.Term, len(v.kvs))
		for i, kv := range v.kvs {
			kvs[i] = [2]*ast.Term{kv[0], plainTerm(kv[1])}
		}
	}
	// Two readers building it at once build the same members: the first
	// stored is the one every reader gets.
	b := &viewBuilt{ast.NewObject(kvs...)}
	atomic.CompareAndSwapPointer((*unsafe.Pointer)(unsafe.Pointer(&v.viewBuilt)), nil, unsafe.Pointer(b))
	return v.object()
}

// ForeachKey calls f with each member's key, without building the object
// (Foreach builds it, to give its members in OPA's order): a reader of the
// keys alone, as a set, does not need that order.
func (v *ObjectView) ForeachKey(f func(k *ast.Term)) {
	if v.inserted {
		v.object().Foreach(func(k, _ *ast.Term) { f(k) })
		return
	}
	for i := range v.kvs {
		f(v.kvs[i][0])
	}
}

// ForeachMember calls f with each member, without building the object: in
// the view's own order, its values views where the view holds them. A
// reader that orders the members itself, or needs no order, uses it.
func (v *ObjectView) ForeachMember(f func(k, t *ast.Term)) {
	if v.inserted {
		v.object().Foreach(f)
		return
	}
	for i := range v.kvs {
		f(v.kvs[i][0], v.kvs[i][1])
	}
}

// Get compares k with each member's key: the members of a message are few.
// The keys are compared by pointer first: a decoded key and the name a
// reader looks up are mostly the same pinned term (Key), and the strings
// are compared only when no pointer matched.
func (v *ObjectView) Get(k *ast.Term) *ast.Term {
	if v.inserted {
		return v.object().Get(k)
	}
	for i := range v.kvs {
		if v.kvs[i][0] == k {
			return v.kvs[i][1]
		}
	}
	s, ok := k.Value.(ast.String)
	if !ok {
		return nil // a JSON object's keys are strings
	}
	for i := range v.kvs {
		if v.kvs[i][0].Value.(ast.String) == s {
			return v.kvs[i][1]
		}
	}
	return nil
}

func (v *ObjectView) Len() int {
	if v.inserted {
		return v.object().Len()
	}
	return len(v.kvs)
}

func (v *ObjectView) Hash() int {
	if v.inserted {
		return v.object().Hash()
	}
	return v.hash
}

// IsGround: decoded JSON holds no variables.
func (v *ObjectView) IsGround() bool {
	if v.inserted {
		return v.object().IsGround()
	}
	return true
}

// Insert adds a member to the built object, which is then the truth, not
// the members.
func (v *ObjectView) Insert(k, t *ast.Term) {
	v.Materialize().Insert(k, t)
	v.inserted = true
}

// The other methods of ast.Value and ast.Object answer from the built
// object.

func (v *ObjectView) Compare(other ast.Value) int {
	return ast.Compare(v.Materialize(), PlainView(other))
}
func (v *ObjectView) Find(path ast.Ref) (ast.Value, error) { return v.Materialize().Find(path) }
func (v *ObjectView) String() string                       { return v.Materialize().String() }
func (v *ObjectView) StringLength() int                    { return v.Materialize().StringLength() }
func (v *ObjectView) Copy() ast.Object                     { return v.Materialize().Copy() }
func (v *ObjectView) Iter(f func(*ast.Term, *ast.Term) error) error {
	return v.Materialize().Iter(f)
}
func (v *ObjectView) Until(f func(*ast.Term, *ast.Term) bool) bool {
	return v.Materialize().Until(f)
}
func (v *ObjectView) Foreach(f func(*ast.Term, *ast.Term)) { v.Materialize().Foreach(f) }
func (v *ObjectView) Map(f func(*ast.Term, *ast.Term) (*ast.Term, *ast.Term, error)) (ast.Object, error) {
	return v.Materialize().Map(f)
}
func (v *ObjectView) Diff(other ast.Object) ast.Object {
	return v.Materialize().Diff(plainViewObject(other))
}
func (v *ObjectView) Intersect(other ast.Object) [][3]*ast.Term {
	return v.Materialize().Intersect(plainViewObject(other))
}
func (v *ObjectView) Merge(other ast.Object) (ast.Object, bool) {
	return v.Materialize().Merge(plainViewObject(other))
}
func (v *ObjectView) MergeWith(other ast.Object, f func(v1, v2 *ast.Term) (*ast.Term, bool)) (ast.Object, bool) {
	return v.Materialize().MergeWith(plainViewObject(other), f)
}
func (v *ObjectView) Filter(filter ast.Object) (ast.Object, error) {
	return v.Materialize().Filter(plainViewObject(filter))
}
func (v *ObjectView) Keys() []*ast.Term                    { return v.Materialize().Keys() }
func (v *ObjectView) KeysIterator() ast.ObjectKeysIterator { return v.Materialize().KeysIterator() }

func plainViewObject(o ast.Object) ast.Object {
	if v, ok := o.(*ObjectView); ok {
		return v.Materialize()
	}
	return o
}

// PlainView returns x's built object when x is a view, else x.
func PlainView(x ast.Value) ast.Value {
	if v, ok := x.(*ObjectView); ok {
		return v.Materialize()
	}
	return x
}

// PlainArray returns arr with its views replaced by their objects: arr
// itself when it holds none.
func PlainArray(arr *ast.Array) *ast.Array {
	var out []*ast.Term
	for i := 0; i < arr.Len(); i++ {
		e := arr.Elem(i)
		if v, ok := e.Value.(*ObjectView); ok {
			if out == nil {
				out = make([]*ast.Term, arr.Len())
				for j := 0; j < i; j++ {
					out[j] = arr.Elem(j)
				}
			}
			e = ast.NewTerm(v.Materialize())
		}
		if out != nil {
			out[i] = e
		}
	}
	if out == nil {
		return arr
	}
	return ast.NewArray(out...)
}
