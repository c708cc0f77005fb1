package jsonl

import (
	"encoding/json"
	"strconv"
	"strings"
)

// ValueOffset returns the byte offset in data (one JSON value) of the value
// a JSON Pointer names ("/messages/3/content"). ok is false when data has no
// such value or is not valid JSON up to it. It scans without decoding, so
// that a finding inside a record spanning several lines (an element of a
// .json array) can be placed on the line of what it names.
func ValueOffset(data []byte, pointer string) (int, bool) {
	s := scanner{data: data}
	s.space()
	if pointer == "" {
		return s.pos, s.pos < len(data)
	}
	toks, ok := PointerTokens(pointer)
	if !ok {
		return 0, false
	}
	for _, tok := range toks {
		if !s.enter(tok) {
			return 0, false
		}
	}
	return s.pos, true
}

// PointerTokens splits a JSON Pointer into its unescaped tokens: "" names
// the whole value (no tokens), "/a~1b/0" names "a/b" then "0". ok is false
// when p does not start with a /.
func PointerTokens(p string) (toks []string, ok bool) {
	if p == "" {
		return nil, true
	}
	if p[0] != '/' {
		return nil, false
	}
	toks = strings.Split(p[1:], "/")
	for i, t := range toks {
		if strings.IndexByte(t, '~') >= 0 {
			toks[i] = pointerUnescaper.Replace(t)
		}
	}
	return toks, true
}

// pointerUnescaper undoes JSON Pointer escapes in one pass, so "~01" is
// "~1", not "/".
var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

type scanner struct {
	data []byte
	pos  int
}

func (s *scanner) space() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\r', '\n':
			s.pos++
		default:
			return
		}
	}
}

func (s *scanner) peek() byte {
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

// enter moves from the start of an object or array to the start of its
// member or element tok.
func (s *scanner) enter(tok string) bool {
	switch s.peek() {
	case '{':
		s.pos++
		for {
			s.space()
			if s.peek() != '"' {
				return false
			}
			start := s.pos
			if !s.skipString() {
				return false
			}
			var key string
			if json.Unmarshal(s.data[start:s.pos], &key) != nil {
				return false
			}
			s.space()
			if s.peek() != ':' {
				return false
			}
			s.pos++
			s.space()
			if key == tok {
				return s.pos < len(s.data)
			}
			if !s.next() {
				return false
			}
		}
	case '[':
		want, err := strconv.Atoi(tok)
		if err != nil || want < 0 {
			return false
		}
		s.pos++
		for i := 0; ; i++ {
			s.space()
			if s.peek() == ']' || s.pos >= len(s.data) {
				return false
			}
			if i == want {
				return true
			}
			if !s.next() {
				return false
			}
		}
	}
	return false
}

// next skips the value at pos and the comma after it.
func (s *scanner) next() bool {
	if !s.skipValue() {
		return false
	}
	s.space()
	if s.peek() != ',' {
		return false
	}
	s.pos++
	return true
}

func (s *scanner) skipString() bool {
	for s.pos++; s.pos < len(s.data); s.pos++ {
		switch s.data[s.pos] {
		case '\\':
			s.pos++
		case '"':
			s.pos++
			return true
		}
	}
	return false
}

// skipValue skips one value: a string, a nested object or array (counting
// brackets outside strings), or a scalar.
func (s *scanner) skipValue() bool {
	switch s.peek() {
	case '"':
		return s.skipString()
	case '{', '[':
		depth := 0
		for s.pos < len(s.data) {
			switch s.data[s.pos] {
			case '"':
				if !s.skipString() {
					return false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.pos++
					return true
				}
			}
			s.pos++
		}
		return false
	}
	start := s.pos
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return s.pos > start
		}
		s.pos++
	}
	return s.pos > start
}
