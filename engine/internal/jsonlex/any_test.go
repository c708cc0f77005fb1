package jsonlex

import (
	"bytes"
	"encoding/json"
)

// decodeAny is the smallest builder over the lexer: the Go values
// encoding/json makes with UseNumber (maps, so a repeated key keeps its last
// value). The tests compare it with encoding/json itself.
func decodeAny(data []byte, replace bool) (any, error) {
	l := Lexer{Data: data, ReplaceInvalid: replace}
	v, j := anyValue(&l, 0)
	if j >= 0 && l.End(j) {
		return v, nil
	}
	return nil, l.Err()
}

func anyValue(l *Lexer, i int) (any, int) {
	k, i := l.Peek(i)
	switch k {
	case String:
		s, j := l.String(i)
		return string(s), j
	case Number:
		j, _ := l.Number(i)
		if j < 0 {
			return nil, j
		}
		return json.Number(l.Data[i:j]), j
	case True:
		return true, l.Literal(i, "true")
	case False:
		return false, l.Literal(i, "false")
	case Null:
		return nil, l.Literal(i, "null")
	case Object:
		if !l.Enter(i) {
			return nil, -1
		}
		m := map[string]any{}
		k, j, more := l.Member(i+1, true)
		for more {
			key := string(k)
			if m[key], j = anyValue(l, j); j < 0 {
				return nil, j
			}
			k, j, more = l.Member(j, false)
		}
		return m, j
	case Array:
		if !l.Enter(i) {
			return nil, -1
		}
		a := []any{}
		j, more := l.FirstElement(i + 1)
		for more {
			var v any
			if v, j = anyValue(l, j); j < 0 {
				return nil, j
			}
			a = append(a, v)
			j, more = l.Element(j)
		}
		return a, j
	}
	return nil, -1
}

// reference is encoding/json's reading of data.
func reference(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if !json.Valid(data) { // trailing data after the value
		return nil, errTrailing
	}
	return v, nil
}

var errTrailing = &SyntaxError{Msg: "data after the value"}
