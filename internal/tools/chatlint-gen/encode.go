package main

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

var jsonSafe = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. s must be valid UTF-8. With
// g.ascii set, non-ASCII characters are written as \u escapes (surrogate
// pairs outside the BMP).
func (g *generator) appendString(b, s []byte) []byte { return appendJSONString(b, s, g.ascii) }

func appendJSONString(b, s []byte, ascii bool) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if jsonSafe[c] {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			if !ascii {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			r, size := utf8.DecodeRune(s[i:])
			if r >= 0x10000 {
				r1, r2 := utf16.EncodeRune(r)
				b = appendU(b, r1)
				b = appendU(b, r2)
			} else {
				b = appendU(b, r)
			}
			i += size
			start = i
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = appendU(b, rune(c))
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func appendU(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&15], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
}

func appendStr(b []byte, s string) []byte { return appendJSONString(b, []byte(s), false) }

func (g *generator) appendCall(b []byte, c *toolCall, withID bool) []byte {
	if withID {
		b = append(b, `{"id":"`...)
		b = append(b, c.id...)
		b = append(b, `","type":"function","function":{"name":"`...)
	} else {
		b = append(b, `{"name":"`...)
	}
	b = append(b, c.name...)
	b = append(b, '"')
	if !c.noArgs {
		b = append(b, `,"arguments":`...)
		b = g.appendString(b, c.args)
	}
	if withID {
		b = append(b, '}')
	}
	return append(b, '}')
}

func (g *generator) appendMessage(b []byte, m *message) []byte {
	b = append(b, `{"role":"`...)
	b = append(b, m.role...)
	b = append(b, '"')
	if m.toolCallID != nil {
		b = append(b, `,"tool_call_id":"`...)
		b = append(b, m.toolCallID...)
		b = append(b, '"')
	}
	b = append(b, `,"content":`...)
	if m.nullContent {
		b = append(b, "null"...)
	} else {
		b = g.appendString(b, m.content)
	}
	if len(m.calls) > 0 {
		b = append(b, `,"tool_calls":`...)
		if m.callsObject {
			b = g.appendCall(b, &m.calls[0], true)
		} else {
			b = append(b, '[')
			for i := range m.calls {
				if i > 0 {
					b = append(b, ',')
				}
				b = g.appendCall(b, &m.calls[i], true)
			}
			b = append(b, ']')
		}
	}
	if m.legacy != nil {
		b = append(b, `,"function_call":`...)
		b = g.appendCall(b, m.legacy, false)
	}
	return append(b, '}')
}

// appendToolSet appends a tools array; the definition at index bad (if any)
// gets parameters.type "dict".
func appendToolSet(b []byte, defs []*toolDef, bad int) []byte {
	b = append(b, '[')
	for i, d := range defs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":"function","function":{"name":`...)
		b = appendStr(b, d.name)
		b = append(b, `,"description":`...)
		b = appendStr(b, d.desc)
		if i == bad {
			b = append(b, `,"parameters":{"type":"dict","properties":{`...)
		} else {
			b = append(b, `,"parameters":{"type":"object","properties":{`...)
		}
		for j := range d.params {
			p := &d.params[j]
			if j > 0 {
				b = append(b, ',')
			}
			b = appendStr(b, p.name)
			b = append(b, `:{"type":`...)
			b = appendStr(b, p.typ)
			if p.typ == "array" {
				b = append(b, `,"items":{"type":"string"}`...)
			}
			if len(p.enum) > 0 {
				b = append(b, `,"enum":[`...)
				for k, e := range p.enum {
					if k > 0 {
						b = append(b, ',')
					}
					b = appendStr(b, e)
				}
				b = append(b, ']')
			}
			b = append(b, `,"description":`...)
			b = appendStr(b, p.desc)
			b = append(b, '}')
		}
		b = append(b, `},"required":[`...)
		n := 0
		for j := range d.params {
			if d.params[j].required {
				if n > 0 {
					b = append(b, ',')
				}
				b = appendStr(b, d.params[j].name)
				n++
			}
		}
		b = append(b, `]}}}`...)
	}
	return append(b, ']')
}

func buildToolSets() []*toolSet {
	sets := make([]*toolSet, len(toolSetNames))
	for i, names := range toolSetNames {
		ts := &toolSet{}
		for _, n := range names {
			for j := range toolCatalog {
				if toolCatalog[j].name == n {
					ts.defs = append(ts.defs, &toolCatalog[j])
				}
			}
		}
		if len(ts.defs) != len(names) {
			panic("tool set " + strconv.Itoa(i) + " names an unknown tool")
		}
		ts.json = appendToolSet(nil, ts.defs, -1)
		sets[i] = ts
	}
	return sets
}
