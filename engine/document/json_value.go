package document

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// JSONValue is ast.JSON for a value of a document that may hold views
// (MessageValues, astjson.ObjectViews): the same Go value (maps, slices,
// json.Number, strings, booleans, nil) that ast.JSON gives for the value's
// plain form (Plain), read from the views' own members without building
// their objects. ast.JSON refuses a view, and building them first
// (Document.Materialized) keeps an OPA object beside every line and message
// of a long session for as long as the session is held; a reader that
// turns a document into Go values one piece at a time (convert --to) reads
// through this instead.
func JSONValue(v ast.Value) (any, error) {
	switch x := v.(type) {
	case *MessageValue:
		if x.inserted {
			return jsonObject(x.Len(), x.Object.Foreach)
		}
		return jsonObject(x.Len(), func(f func(k, t *ast.Term)) {
			for i, t := range x.slots {
				if t != nil {
					f(msgSlotKeys[i], t)
				}
			}
		})
	case *astjson.ObjectView:
		return jsonObject(x.Len(), x.ForeachMember)
	}
	// Most values hold no view (every value of a document decoded whole):
	// OPA's conversion is the quicker, and it fails on a view.
	if g, err := ast.JSON(v); err == nil {
		return g, nil
	}
	switch x := v.(type) {
	case *ast.Array:
		out := make([]any, 0, x.Len())
		for i := range x.Len() {
			e, err := JSONValue(x.Elem(i).Value)
			if err != nil {
				return nil, err
			}
			out = append(out, e)
		}
		return out, nil
	case ast.Object:
		return jsonObject(x.Len(), x.Foreach)
	case ast.Set:
		out := make([]any, 0, x.Len())
		var err error
		x.Foreach(func(t *ast.Term) {
			if err != nil {
				return
			}
			var e any
			if e, err = JSONValue(t.Value); err == nil {
				out = append(out, e)
			}
		})
		return out, err
	}
	return ast.JSON(v)
}

// jsonObject is the map of the n members each gives, its keys as ast.JSON
// writes them: a string as it is, any other key encoded as JSON. A member
// given twice keeps its last value, as an OPA object built from the same
// members does.
func jsonObject(n int, each func(func(k, t *ast.Term))) (any, error) {
	out := make(map[string]any, n)
	var err error
	each(func(k, t *ast.Term) {
		if err != nil {
			return
		}
		var key, val any
		if key, err = JSONValue(k.Value); err != nil {
			return
		}
		s, ok := key.(string)
		if !ok {
			var b bytes.Buffer
			if err = json.NewEncoder(&b).Encode(key); err != nil {
				return
			}
			s = strings.TrimSpace(b.String())
		}
		if val, err = JSONValue(t.Value); err == nil {
			out[s] = val
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
