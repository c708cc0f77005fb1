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
	v, j := anyValue(&l, SkipWS(data, 0))
	if j >= 0 && l.End(j) {
		return v, nil
	}
	return nil, l.Err
}

func anyValue(l *Lexer, i int) (any, int) {
	switch l.Peek(i) {
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
		j, empty := l.Open(i, '}')
		m := map[string]any{}
		for more := !empty; more && j >= 0; {
			var k []byte
			if k, j = l.Key(j); j < 0 {
				break
			}
			key := string(k)
			if m[key], j = anyValue(l, j); j < 0 {
				break
			}
			j, more = l.Next(j, '}')
		}
		return m, j
	case Array:
		j, empty := l.Open(i, ']')
		a := []any{}
		for more := !empty; more && j >= 0; {
			var v any
			if v, j = anyValue(l, j); j < 0 {
				break
			}
			a = append(a, v)
			j, more = l.Next(j, ']')
		}
		return a, j
	}
	l.NotValue(i)
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
