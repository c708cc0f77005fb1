package builtins

import (
	"hash/maphash"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// A tool call's arguments are JSON text that several rules of one document
// read in turn: tool-arguments-invalid-json and tool-arguments-not-object
// (YAML `json:` conditions, the second one twice) and the schema builtin
// chatlint.call_schema_errors. Each used to parse the text again; the
// latest parses are kept by content instead, so the text is parsed once.
// The cache is small and lock-free: slots picked by a hash of the text,
// each holding one immutable entry that a later text may replace. A miss
// only parses again, so a collision costs time, never a wrong answer.

// textCacheSlots is how many parses are kept; the rules of one document
// read its calls within microseconds, so a few dozen would do.
const textCacheSlots = 128

// textCacheMax is the longest text kept: a slot must not pin megabytes of
// parsed value, and a longer text costs far more to parse than to parse
// again.
const textCacheMax = 16 << 10

type parsedText struct {
	text string
	v    ast.Value
	ok   bool
}

type textCache struct {
	seed  maphash.Seed
	slots [textCacheSlots]atomic.Pointer[parsedText]
}

var parsedTexts = &textCache{seed: maphash.MakeSeed()}

// parse returns s parsed as one JSON value, and whether it is one.
func (c *textCache) parse(s string) (ast.Value, bool) {
	if len(s) > textCacheMax {
		return decodeText(s)
	}
	slot := &c.slots[maphash.String(c.seed, s)%textCacheSlots]
	if p := slot.Load(); p != nil && p.text == s {
		return p.v, p.ok
	}
	v, ok := decodeText(s)
	slot.Store(&parsedText{text: s, v: v, ok: ok})
	return v, ok
}

// decodeText decodes s, an object as an astjson.ObjectView: its readers
// (the json tests, the quick schema check) look up a few members or ask
// its type, and a view answers them without the hashing and the map an
// OPA object is built with; the schema validator asks for plain values
// (document.Plain), which builds the object then. Its members are built
// whole, as Decode builds them.
func decodeText(s string) (ast.Value, bool) {
	v, err := astjson.DecodeProjectedString(s, textProjection)
	return v, err == nil
}

var textProjection = &astjson.Projection{View: true, Object: true, KeepOthers: true}
