package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// SyntaxError is a .json file that is not one JSON value.
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// SplitJSON splits the contents of a .json file into records: the elements of
// a top-level array, or the one top-level object. A file holding several
// values one after another is not a .json document; ok is false and the
// caller should read it as JSON Lines instead.
//
// The whole file is in memory here: a .json document is a single value and
// cannot be streamed line by line.
func SplitJSON(data []byte) (recs []Record, ok bool, err error) {
	data = bytes.TrimPrefix(data, bom)
	lines := newLineCounter(data)
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 {
		return nil, true, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if trimmed[0] != '[' {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			first, _, _ := bytes.Cut(trimmed, []byte{'\n'})
			if json.Valid(first) {
				return nil, false, nil // JSON Lines with a broken line further down
			}
			// One pretty-printed value with an error: one finding at its
			// line, not one per line of the document.
			return nil, true, syntaxErr(lines, dec, err)
		}
		if trailing(data, dec) >= 0 {
			return nil, false, nil // several values: JSON Lines under a .json name
		}
		start := int(dec.InputOffset()) - len(raw)
		return []Record{{Line: lines.at(start), Data: raw, Offset: int64(start), Raw: raw}}, true, nil
	}
	if _, err := dec.Token(); err != nil {
		return nil, true, syntaxErr(lines, dec, err)
	}
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return recs, true, syntaxErr(lines, dec, err)
		}
		start := int(dec.InputOffset()) - len(raw)
		recs = append(recs, Record{Line: lines.at(start), Data: raw, Offset: int64(start), Raw: raw})
	}
	if _, err := dec.Token(); err != nil {
		return recs, true, syntaxErr(lines, dec, err)
	}
	if off := trailing(data, dec); off >= 0 {
		return recs, true, &SyntaxError{Line: lines.at(off), Msg: "unexpected data after the top-level array"}
	}
	return recs, true, nil
}

// trailing returns the offset of the first non-space byte after the value
// the decoder just read, or -1. (dec.More misses a stray ']' or '}'.)
func trailing(data []byte, dec *json.Decoder) int {
	rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")
	if len(rest) == 0 {
		return -1
	}
	return len(data) - len(rest)
}

func syntaxErr(lines *lineCounter, dec *json.Decoder, err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return &SyntaxError{Line: lines.at(len(lines.data)), Msg: "unexpected end of file"}
	}
	// The offset of a json.SyntaxError from a Decoder that has read tokens
	// is not the offset in the input; scanning the whole input again finds
	// the same first error at its real offset.
	off := int(dec.InputOffset())
	var se *json.SyntaxError
	if errors.As(json.Unmarshal(lines.data, new(json.RawMessage)), &se) {
		off = int(se.Offset)
	}
	return &SyntaxError{Line: lines.at(off), Msg: err.Error()}
}

// lineCounter maps byte offsets, asked for in increasing order, to lines.
type lineCounter struct {
	data []byte
	off  int
	line int
}

func newLineCounter(data []byte) *lineCounter { return &lineCounter{data: data, line: 1} }

func (c *lineCounter) at(off int) int {
	off = min(off, len(c.data))
	if off < c.off { // not expected, but stay correct
		c.off, c.line = 0, 1
	}
	c.line += bytes.Count(c.data[c.off:off], []byte{'\n'})
	c.off = off
	return c.line
}
