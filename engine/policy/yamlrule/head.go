package yamlrule

import (
	"slices"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

// What the first segment of a path names is known when the path is parsed:
// a member of the element, a context ($message, $document ...), $index, or
// maybe a let or $group of the rule. lookupValue and relEnv.virtual used to
// find it out on every lookup by trimming and comparing strings, and by
// scanning the rule's lets by name.

// ctxKind is the context a path's first segment names, if any.
type ctxKind uint8

const (
	ctxNone ctxKind = iota
	ctxMessage
	ctxTool
	ctxEntry
	ctxDocument
	ctxPrevious
)

var ctxNames = map[string]ctxKind{"message": ctxMessage, "tool": ctxTool, "entry": ctxEntry, "document": ctxDocument, "previous": ctxPrevious}

// head fills in what s, the first segment of a path, names.
func (s *seg) head() {
	alias, dollar := strings.CutPrefix(s.name, "$")
	s.dollar = dollar
	s.ctx = ctxNames[alias]
	s.isIndex = s.name == "$index"
	// A let cannot take a reserved name, so only $group among them can be
	// virtual (rel_eval.go).
	s.virt = dollar && (alias == "group" || !slices.Contains(reservedNames, alias))
	s.isGroup = dollar && alias == "group"
	if s.virt {
		s.sym = letSym(alias)
	}
}

// contextOf is sc.context for a context named by kind.
func (sc *scope) contextOf(k ctxKind) ast.Object {
	switch k {
	case ctxMessage:
		return sc.message
	case ctxTool:
		return sc.tool
	case ctxEntry:
		return sc.entry
	case ctxDocument:
		return sc.doc
	case ctxPrevious:
		return sc.previous()
	}
	return nil
}

// letSyms numbers the names of lets (and the $names paths read), so that a
// path finds its let by number.
var letSyms = struct {
	sync.Mutex
	m map[string]int
}{m: map[string]int{}}

func letSym(name string) int {
	letSyms.Lock()
	defer letSyms.Unlock()
	id, ok := letSyms.m[name]
	if !ok {
		id = len(letSyms.m) + 1 // 0: not a let's name
		letSyms.m[name] = id
	}
	return id
}
