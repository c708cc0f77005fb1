package fix

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/jsonv"
)

// splitPointer splits a JSON Pointer into its unescaped tokens.
func splitPointer(p string) ([]string, error) {
	toks, ok := jsonl.PointerTokens(p)
	if !ok {
		return nil, fmt.Errorf("JSON Pointer %q does not start with /", p)
	}
	return toks, nil
}

// lookup returns the value at pointer p inside v.
func lookup(v jsonv.Value, p string) (jsonv.Value, error) {
	toks, err := splitPointer(p)
	if err != nil {
		return nil, err
	}
	for _, t := range toks {
		switch c := v.(type) {
		case *jsonv.Object:
			x, ok := c.Get(t)
			if !ok {
				return nil, fmt.Errorf("%s: no member %q", p, t)
			}
			v = x
		case []jsonv.Value:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("%s: no element %q", p, t)
			}
			v = c[i]
		default:
			return nil, fmt.Errorf("%s: %q is inside a scalar", p, t)
		}
	}
	return v, nil
}

// set replaces the value at pointer p inside the object root; the parent
// must exist and be an object or an array holding that index.
func set(root jsonv.Value, p string, x jsonv.Value) error {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return fmt.Errorf("cannot replace the record itself at %q", p)
	}
	parent, err := lookup(root, p[:i])
	if err != nil {
		return err
	}
	toks, _ := splitPointer(p[i:])
	switch c := parent.(type) {
	case *jsonv.Object:
		c.Set(toks[0], x)
		return nil
	case []jsonv.Value:
		n, err := strconv.Atoi(toks[0])
		if err != nil || n < 0 || n >= len(c) {
			return fmt.Errorf("%s: no element %q", p, toks[0])
		}
		c[n] = x
		return nil
	}
	return fmt.Errorf("%s: parent is not an object or array", p)
}

// splitIndex splits "/a/b/3" into "/a/b" and 3; ok is false when the last
// token is not an array index.
func splitIndex(p string) (string, int, bool) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(p[i+1:])
	if err != nil || n < 0 {
		return "", 0, false
	}
	return p[:i], n, true
}

// fromRule turns a value as a rule gave it (Rego's JSON, or YAML's) into a
// jsonv value. Objects have no key order there; keys are written in the
// order messages usually have (role first, timestamp last), then sorted.
func fromRule(v any) (jsonv.Value, error) {
	switch t := v.(type) {
	case nil, bool, string, json.Number:
		return t, nil
	case int:
		return json.Number(strconv.Itoa(t)), nil
	case int64:
		return json.Number(strconv.FormatInt(t, 10)), nil
	case uint64:
		return json.Number(strconv.FormatUint(t, 10)), nil
	case float64:
		if math.IsInf(t, 0) || math.IsNaN(t) {
			return nil, fmt.Errorf("%v is not a JSON number", t)
		}
		return json.Number(strconv.FormatFloat(t, 'g', -1, 64)), nil
	case []any:
		out := make([]jsonv.Value, len(t))
		for i, e := range t {
			x, err := fromRule(e)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			ri, rj := keyRank(keys[i]), keyRank(keys[j])
			if ri != rj {
				return ri < rj
			}
			return keys[i] < keys[j]
		})
		o := &jsonv.Object{Members: make([]jsonv.Member, 0, len(keys))}
		for _, k := range keys {
			x, err := fromRule(t[k])
			if err != nil {
				return nil, err
			}
			o.Members = append(o.Members, jsonv.Member{Key: k, Value: x})
		}
		return o, nil
	case map[any]any: // YAML
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[fmt.Sprint(k)] = x
		}
		return fromRule(m)
	}
	return nil, fmt.Errorf("%T is not a JSON value", v)
}

// keyOrder is the order of the members of the messages and entries chat
// datasets and agent transcripts write; other keys follow, sorted, and
// timestamp goes last.
var keyOrder = []string{"type", "id", "parentId", "role", "tool_call_id", "toolCallId", "toolUseId", "toolName", "name", "content", "tool_calls", "isError"}

func keyRank(k string) int {
	for i, x := range keyOrder {
		if x == k {
			return i
		}
	}
	if k == "timestamp" {
		return len(keyOrder) + 1
	}
	return len(keyOrder)
}
