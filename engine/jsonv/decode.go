package jsonv

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/chatlint/chatlint/engine/internal/jsonlex"
)

// Decode parses one JSON value; anything but white space after it is an error.
//
// It reads the bytes with the shared lexer (engine/internal/jsonlex), which
// is several times faster than encoding/json's token stream and gives the
// same values: strings unquoted as encoding/json unquotes them (invalid UTF-8
// and unpaired surrogates become U+FFFD), numbers as their text. Input it
// does not accept is decoded again with encoding/json, so that errors read
// as they always did.
func Decode(data []byte) (Value, error) {
	d := decoder{data: data}
	v, ok := d.value(0)
	if ok {
		d.space()
		if d.i == len(data) {
			return v, nil
		}
	}
	return decodeTokens(data)
}

// maxDepth is encoding/json's nesting limit, which the lexer enforces.
const maxDepth = jsonlex.MaxDepth

// decoder builds ordered values over the lexer: data is the input, i the
// position of the next token.
type decoder struct {
	data []byte
	i    int
	lex  jsonlex.Lexer
}

func (d *decoder) space() { d.i = jsonlex.SkipWS(d.data, d.i) }

// value reads the value at d.i (after white space); false when the input is
// not valid JSON there. depth counts the containers around the value; at 0,
// the document's value, the lexer is pointed at data.
func (d *decoder) value(depth int) (Value, bool) {
	if depth == 0 {
		d.lex = jsonlex.Lexer{Data: d.data, ReplaceInvalid: true}
	}
	k, i := d.lex.Peek(d.i)
	d.i = i
	switch k {
	case jsonlex.Object:
		return d.object(depth + 1)
	case jsonlex.Array:
		return d.array(depth + 1)
	case jsonlex.String:
		s, j := d.lex.String(d.i)
		return string(s), d.to(j)
	case jsonlex.Number:
		start := d.i
		if j, _ := d.lex.Number(start); d.to(j) {
			return json.Number(d.data[start:j]), true
		}
		return nil, false
	case jsonlex.True:
		return true, d.literal("true")
	case jsonlex.False:
		return false, d.literal("false")
	case jsonlex.Null:
		return nil, d.literal("null")
	}
	return nil, false
}

func (d *decoder) literal(word string) bool { return d.to(d.lex.Literal(d.i, word)) }

// to moves to j, an index the lexer returned; false when it is -1 (the
// lexer found an error), which leaves d.i where the token began.
func (d *decoder) to(j int) bool {
	if j < 0 {
		return false
	}
	d.i = j
	return true
}

// object reads the object at d.i; its members keep their order, and a
// repeated key is kept as read.
func (d *decoder) object(depth int) (Value, bool) {
	if !d.lex.Enter(d.i) {
		return nil, false
	}
	o := &Object{}
	k, j, more := d.lex.Member(d.i+1, true)
	for ; more; k, j, more = d.lex.Member(d.i, false) {
		d.i = j
		key := string(k)
		v, ok := d.value(depth)
		if !ok {
			return nil, false
		}
		o.Members = append(o.Members, Member{key, v})
	}
	return o, d.to(j)
}

func (d *decoder) array(depth int) (Value, bool) {
	if !d.lex.Enter(d.i) {
		return nil, false
	}
	a := []Value{}
	j, more := d.lex.FirstElement(d.i + 1)
	for ; more; j, more = d.lex.Element(d.i) {
		d.i = j
		v, ok := d.value(depth)
		if !ok {
			return nil, false
		}
		a = append(a, v)
	}
	return a, d.to(j)
}

// decodeTokens decodes with encoding/json's token stream: the reference for
// what Decode accepts, and where its errors come from.
func decodeTokens(data []byte) (Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("jsonv: data after the JSON value")
	}
	return v, nil
}
