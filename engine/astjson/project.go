package astjson

import (
	"bytes"
	"sync"
	"unsafe"

	"github.com/chatlint/chatlint/engine/internal/jsonlex"
	"github.com/open-policy-agent/opa/v1/ast"
)

// Projection says which parts of a JSON text DecodeProjected builds. A nil
// *Projection builds the value whole, as Decode does. A non-nil one applies
// to whatever kind of value it meets:
//
//   - an object, when Object is set, keeps the members Members names (each
//     built by its own node, nil meaning whole) and, with KeepOthers, every
//     other member whole but those Omit names; without Object it is built
//     whole;
//   - an object's members that Members does not name (nor Omit) are built
//     by Others (nil: whole) when KeepOthers is set;
//   - an array keeps every element, each built by Elem (nil: whole), but
//     when Dense is above zero an array of more than Dense elements that
//     are all numbers, booleans or null keeps only its first Dense: a
//     caller that looks only for strings, objects and arrays inside it, or
//     whether it is empty, gets the answers the whole array gives without
//     a term per element (a 60 MB line of [0,0,...] is 30 million);
//   - a string, when Probe is set, is kept only when it contains one of
//     Needles; any other string becomes a placeholder that is empty when the
//     string is, so "is it empty" and "does it contain a needle" still get
//     the answers the whole value gives;
//   - any value but null, when Stub is set, becomes the placeholder true:
//     only "is it there and not null" is kept;
//   - a value that Shape applies to (Shape is set, and it is not an object
//     Object describes nor an array Elem or Dense describes) becomes a
//     stand-in of its kind and emptiness: a non-empty array one element,
//     true; a non-empty object one member, true; a scalar as it is. A
//     reader that asks only a value's type, whether it is there, empty or
//     truthy (a YAML rule's type, present, not_empty, truthy) gets the
//     answers the value gives, and a failing assertion prints an array or
//     object only as "an array" or "an object";
//   - a value that Digest applies to (as Shape applies) becomes a stand-in
//     of its kind, emptiness and equality: a non-empty array or object
//     holds a digest of its value (digest.go), a scalar is as it is. A
//     reader that compares it with the value at the same place of another
//     element (a YAML rule's same_as), or tests its shape, gets the answers
//     the value gives;
//   - numbers, booleans and null are built as they are.
//
// What a projection leaves out is still read: the input is validated exactly
// as Decode validates it, and it fails with the same errors at the same
// offsets; left-out values are only not built.
type Projection struct {
	// View, with Object, builds the object as an ObjectView (objectview.go)
	// rather than an OPA object.
	View       bool
	Object     bool
	Members    map[string]*Projection
	KeepOthers bool
	Others     *Projection
	Omit       map[string]bool
	Elem       *Projection
	Dense      int
	Probe      bool
	Needles    []string
	Stub       bool
	Shape      bool
	Digest     bool

	// index is the Members and Omit by their pinned names (members.go),
	// built on first use; a copy of the projection builds its own.
	index unsafe.Pointer
}

// placeholder stands for a non-empty string a Probe left out. It contains
// none of the needles a caller could sensibly probe for.
var placeholder = ast.StringTerm("\u2026")

// DecodeProjected is Decode building only what p keeps (see Projection).
// It accepts and rejects exactly the inputs Decode does, with the same
// errors; where p keeps a value, the value is the one Decode gives.
func DecodeProjected(data []byte, p *Projection) (ast.Value, error) {
	return decode(data, p)
}

// DecodeProjectedString is DecodeProjected over the bytes of s, read in
// place: the decoder only reads its input and its result does not alias it,
// so a JSON text held as a string (a tool call's arguments) needs no copy.
func DecodeProjectedString(s string, p *Projection) (ast.Value, error) {
	return decode(unsafe.Slice(unsafe.StringData(s), len(s)), p)
}

// project builds the value at Data[i] as p says.
func (d *decoder) project(i int, p *Projection) (*ast.Term, int) {
	if p == nil {
		return d.memberValue(i)
	}
	k, i := d.Peek(i)
	switch {
	case p.Digest && !(k == jsonlex.Object && p.Object) && !(k == jsonlex.Array && (p.Elem != nil || p.Dense > 0)):
		return d.standIn(i, k)
	case p.Shape && !(k == jsonlex.Object && p.Object) && !(k == jsonlex.Array && (p.Elem != nil || p.Dense > 0)):
		return d.shape(i, k)
	case p.Stub && k != jsonlex.Null:
		j := d.skip(i)
		if j < 0 {
			return nil, j
		}
		return ast.InternedBooleanTrue, j
	case k == jsonlex.Object && p.Object:
		return d.object(i, p)
	case k == jsonlex.Array && p.Dense > 0:
		return d.denseArray(i, p)
	case k == jsonlex.Array && p.Elem != nil:
		return d.array(i, p.Elem)
	case k == jsonlex.String && p.Probe:
		return d.probeString(i, p.Needles)
	}
	return d.value(i)
}

// probeString builds the string at Data[i] when it contains one of needles,
// else the empty string or the placeholder.
func (d *decoder) probeString(i int, needles []string) (*ast.Term, int) {
	s, j := d.String(i)
	if j < 0 {
		return nil, j
	}
	if len(s) == 0 {
		return ast.InternedEmptyString, j
	}
	for _, n := range needles {
		if bytes.Contains(s, []byte(n)) {
			return d.alloc.term(ast.String(string(s))), j
		}
	}
	return placeholder, j
}

// shapeKey names the one member of an object's stand-in (Shape).
var shapeKey = ast.StringTerm("\u2026")

// shape builds the stand-in of the value at Data[i], of kind k (Shape):
// the value is validated as skip validates it, and an array or object is
// kept only as empty or not.
func (d *decoder) shape(i int, k jsonlex.Kind) (*ast.Term, int) {
	if k != jsonlex.Array && k != jsonlex.Object {
		return d.value(i)
	}
	j := d.skip(i)
	if j < 0 {
		return nil, j
	}
	empty := true
	for _, c := range d.Data[i+1 : j-1] {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			empty = false
			break
		}
	}
	switch {
	case k == jsonlex.Array && empty:
		return shapeEmptyArray, j
	case k == jsonlex.Array:
		return shapeArray, j
	case empty:
		return shapeEmptyObject, j
	}
	return shapeObject, j
}

// The four stand-ins shape builds, shared by every record as the interned
// terms are: a stand-in is the same value wherever it stands, no reader
// mutates a decoded term, and an object holding only shared terms may then
// be shared itself (shared.go). A contract record's messages, read only for
// their shape, were four allocations each.
var (
	shapeEmptyArray  = ast.NewTerm(ast.NewArray())
	shapeArray       = ast.NewTerm(ast.NewArray(ast.InternedBooleanTrue))
	shapeEmptyObject = ast.NewTerm(ast.NewObject())
	shapeObject      = ast.NewTerm(ast.NewObject([2]*ast.Term{shapeKey, ast.InternedBooleanTrue}))
)

// exacts holds, for each projection with a Digest somewhere, the one that
// builds those values whole (exact).
var exacts sync.Map // *Projection -> *Projection

// exact is p with every Digest value built whole: how a record is decoded
// when a value a Digest applies to holds a number its digest cannot stand
// for (digest.go).
func exact(p *Projection) *Projection {
	if p == nil {
		return nil
	}
	if q, ok := exacts.Load(p); ok {
		return q.(*Projection)
	}
	q := withoutDigest(p, map[*Projection]*Projection{})
	exacts.Store(p, q)
	return q
}

func withoutDigest(p *Projection, done map[*Projection]*Projection) *Projection {
	if p == nil {
		return nil
	}
	if q, ok := done[p]; ok {
		return q
	}
	if p.Digest && !p.Object && p.Elem == nil && p.Dense == 0 {
		return nil // built whole
	}
	q := *p
	done[p] = &q
	if q.Digest {
		// Where the projection describes the value it still applies;
		// a value of another kind is built whole.
		q.Digest = false
	}
	q.Elem = withoutDigest(p.Elem, done)
	q.Others = withoutDigest(p.Others, done)
	if p.Members != nil {
		q.Members = make(map[string]*Projection, len(p.Members))
		for k, m := range p.Members {
			q.Members[k] = withoutDigest(m, done)
		}
	}
	return &q
}
