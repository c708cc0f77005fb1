package yamlrule

import (
	"hash/maphash"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
)

// A tools array is usually byte-identical across the records of a dataset,
// so rules that read nothing but the tool definitions run once per distinct
// tools array and their hits are reused.

// ToolsOnly reports whether a YAML rule depends on the tool definitions
// alone (and the document's format and mode, which are part of the cache
// key): it runs on tools[*] and none of its paths reach the document, a
// message or the tool's line.
func (r *Rule) ToolsOnly() bool {
	if len(r.given) != 1 || r.given[0].field != "tools" || !r.given[0].each || len(r.Profiles) > 0 {
		return false
	}
	local := func(path []seg) bool {
		if len(path) == 0 {
			return true
		}
		switch strings.TrimPrefix(path[0].name, "$") {
		case "document", "message", "entry", "line":
			return false
		}
		return true
	}
	for _, cs := range [][]check{r.where, r.assert} {
		for _, c := range cs {
			if !local(c.path) {
				return false
			}
		}
	}
	for _, p := range r.message {
		if p.tmpl && !local(p.path) {
			return false
		}
	}
	return true
}

var (
	memoSeed = maphash.MakeSeed()
)

// ToolsMemo caches the hits of the tools-only rules per tools array.
type ToolsMemo struct {
	mu      sync.Mutex
	entries map[uint64][]memoEntry
	size    int
}

type memoEntry struct {
	scope string     // format and mode: rules may be limited to either
	tools *ast.Array // the normalized tools the hits were computed for
	hits  []Hit
}

const memoLimit = 256 // distinct tools arrays kept; the cache is cleared past it

// key hashes the scope, the definitions and their positions (the hits
// carry paths).
func toolsKey(scope string, tools *ast.Array) uint64 {
	var h maphash.Hash
	h.SetSeed(memoSeed)
	h.WriteString(scope)
	for i := 0; i < tools.Len(); i++ {
		o, _ := tools.Elem(i).Value.(ast.Object)
		if o == nil {
			continue
		}
		if raw := o.Get(document.KeyRaw); raw != nil {
			maphash.WriteComparable(&h, raw.Hash())
		}
		p, _ := stringField(o, document.KeyPath)
		h.WriteString(p)
	}
	return h.Sum64()
}

// sameTools compares the raw definitions and paths of two tools arrays.
func sameTools(a, b *ast.Array) bool {
	if a == b { // records whose tools the decoder and normalizer shared
		return true
	}
	if a.Len() != b.Len() {
		return false
	}
	for i := 0; i < a.Len(); i++ {
		x, _ := a.Elem(i).Value.(ast.Object)
		y, _ := b.Elem(i).Value.(ast.Object)
		if x == nil || y == nil {
			return false
		}
		px, _ := stringField(x, document.KeyPath)
		py, _ := stringField(y, document.KeyPath)
		if px != py || ast.Compare(x.Get(document.KeyRaw), y.Get(document.KeyRaw)) != 0 {
			return false
		}
	}
	return true
}

// Eval returns the hits of rules over doc's tools, from the cache when the
// same tools were seen before.
// last, when not nil, is the worker's own memory of the tools array it saw
// last: records that share their tools array (the decoder shares a repeated
// one) skip the hashing and the lock.
func (m *ToolsMemo) Eval(rules []*Rule, doc ast.Object, hits []Hit, last *LastTools) []Hit {
	t := doc.Get(document.KeyTools)
	tools, _ := t.Value.(*ast.Array)
	if tools == nil || tools.Len() == 0 {
		return hits
	}
	format, mode := stringOf(doc.Get(document.KeyFormat)), stringOf(doc.Get(document.KeyMode))
	if last != nil && last.tools == tools && last.format == format && last.mode == mode {
		return append(hits, last.hits...)
	}
	scope := format + "/" + mode
	key := toolsKey(scope, tools)
	m.mu.Lock()
	for _, e := range m.entries[key] {
		if e.scope == scope && sameTools(e.tools, tools) {
			m.mu.Unlock()
			last.remember(tools, format, mode, e.hits)
			return append(hits, e.hits...)
		}
	}
	m.mu.Unlock()

	var own []Hit
	for _, r := range rules {
		own = r.Eval(doc, own)
	}
	m.mu.Lock()
	if m.entries == nil || m.size >= memoLimit {
		m.entries, m.size = map[uint64][]memoEntry{}, 0
	}
	m.entries[key] = append(m.entries[key], memoEntry{scope: scope, tools: tools, hits: own})
	m.size++
	m.mu.Unlock()
	last.remember(tools, format, mode, own)
	return append(hits, own...)
}

// LastTools is one worker's last tools array and its hits.
type LastTools struct {
	tools        *ast.Array
	format, mode string
	hits         []Hit
}

func (l *LastTools) remember(tools *ast.Array, format, mode string, hits []Hit) {
	if l != nil {
		l.tools, l.format, l.mode, l.hits = tools, format, mode, hits
	}
}
