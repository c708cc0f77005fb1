package convert

import (
	"encoding/json"

	"github.com/chatlint/chatlint/engine/jsonv"
)

// Cleanup rules see an entry in its rule form, where a non-finite number
// (Python's NaN, Infinity, -Infinity) is the string of that name, and the
// record fix hands back is in that form too. restore takes back from the
// entry every value the cleanup left as it was, so such numbers survive
// wherever no rule touched them. It only ever swaps a value for an original
// one with the same rule form: whatever pairing it makes, the result is
// what the rules asked for.

// restore returns out, with the parts equal in rule form to orig's taken
// from orig; same reports whether the result is orig itself.
func restore(orig, out jsonv.Value) (v jsonv.Value, same bool) {
	if sameRule(orig, out) {
		return orig, true
	}
	switch o := out.(type) {
	case *jsonv.Object:
		src, ok := orig.(*jsonv.Object)
		if !ok {
			return out, false
		}
		for i, m := range o.Members {
			if x, ok := src.Get(m.Key); ok {
				o.Members[i].Value, _ = restore(x, m.Value)
			}
		}
	case []jsonv.Value:
		if src, ok := orig.([]jsonv.Value); ok {
			out, _ = restoreList(src, o)
		}
	}
	return out, false
}

// restoreList restores the elements of a list the cleanup may have shortened
// (dropped elements), edited in place or added to: each element is paired
// with the next original equal to it in rule form, else with the next
// original not yet paired (an element edited in place). same[i] reports
// whether element i is an original itself.
func restoreList(orig, out []jsonv.Value) ([]jsonv.Value, []bool) {
	same := make([]bool, len(out))
	next := 0
	for j, v := range out {
		k := next
		for k < len(orig) && !sameRule(orig[k], v) {
			k++
		}
		switch {
		case k < len(orig):
			out[j], same[j], next = orig[k], true, k+1
		case next < len(orig):
			out[j], _ = restore(orig[next], v)
			next++
		}
	}
	return out, same
}

// sameRule reports whether an original value and one read back from its
// rule form (see ruleJSON) are the same there.
func sameRule(orig, out jsonv.Value) bool {
	switch o := orig.(type) {
	case nil:
		return out == nil
	case bool:
		b, ok := out.(bool)
		return ok && b == o
	case string:
		s, ok := out.(string)
		return ok && s == o
	case json.Number:
		switch n := out.(type) {
		case json.Number:
			return n == o
		case string: // a non-finite number, written as a string
			return (o == "NaN" || o == "Infinity" || o == "-Infinity") && n == string(o)
		}
		return false
	case []jsonv.Value:
		l, ok := out.([]jsonv.Value)
		if !ok || len(l) != len(o) {
			return false
		}
		for i := range o {
			if !sameRule(o[i], l[i]) {
				return false
			}
		}
		return true
	case *jsonv.Object:
		x, ok := out.(*jsonv.Object)
		if !ok || len(x.Members) != len(o.Members) {
			return false
		}
		for i, m := range o.Members {
			if x.Members[i].Key != m.Key || !sameRule(m.Value, x.Members[i].Value) {
				return false
			}
		}
		return true
	}
	return false
}
