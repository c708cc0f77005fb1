package yamlrule

import (
	"strconv"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy/builtins"
)

// The JSON Pointer of an element a plain rule's walk reaches is needed only
// when the rule reports the element, which few elements are. Looking up
// every element's "path" member on the way down (and concatenating the
// pointers of elements inside a raw record) cost a hashed lookup, or an
// allocation, per element and rule. The walk records instead the position
// it took at each [*] of the given path, and pointer walks the path again
// when a finding needs the pointer.

// lazyPtrDepth is how many [*] steps a given path may have for the walk to
// record positions; a deeper path builds its pointers on the way down.
const lazyPtrDepth = 4

// lazyPointers reports whether a walk of given can record positions.
func lazyPointers(given []step) bool {
	n := 0
	for _, st := range given {
		if st.each {
			n++
		}
	}
	return n <= lazyPtrDepth
}

// pointer is the JSON Pointer of the element sc stands at, when it is
// known ("" otherwise).
func (sc *scope) pointer() string {
	if sc.given == nil {
		return sc.ptr
	}
	return walkPointer(sc.doc, *sc.given, sc.at[:sc.depth])
}

// walkPointer follows given from doc through the positions at, building the
// pointer as the eager walk would: an element's own path member, and below a
// raw record the member names and positions appended to it.
func walkPointer(doc ast.Object, given []step, at []int32) string {
	var v ast.Value = doc
	ptr, inRaw, k := "", false, 0
	for _, st := range given {
		o, _ := v.(ast.Object)
		if o == nil {
			return ptr
		}
		t := o.Get(st.key)
		if t == nil {
			return ptr
		}
		switch {
		case inRaw:
			ptr += "/" + builtins.EscapePointer(st.field)
		case st.field == "raw":
			inRaw = true
		}
		v = t.Value
		if !st.each {
			continue
		}
		arr, _ := v.(*ast.Array)
		if arr == nil || k >= len(at) || int(at[k]) >= arr.Len() {
			return ptr
		}
		i := int(at[k])
		k++
		v = arr.Elem(i).Value
		if inRaw {
			ptr += "/" + strconv.Itoa(i)
		} else if p, ok := stringField(asObject(v), document.KeyPath); ok {
			ptr = p
		}
	}
	return ptr
}
