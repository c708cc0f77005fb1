package policy

import (
	"bytes"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/chatlint/chatlint/engine/document"
)

// The names analysis (fielduse_yaml.go) cannot bound what a YAML rule reads
// of a record's raw form: raw is any JSON, and a rule that names raw.tools
// may read all of it. yamlRawSource reads the rules' structure instead: every
// path that goes through raw, from the rule's element or the context it
// names, is read whole, unless the rule only tests its shape (a condition
// of type, present, absent, optional, not_empty, truthy or not of those,
// or a message's {{type path}}): then it needs the value's kind and
// emptiness, not the value (document.RawTree). Whatever it cannot place
// (a let it does not know, a file it cannot parse) reads everything.

// shapeOps are the operators that read only a value's kind, presence and
// emptiness (truthy: null, false, 0, "", [] and {} are not; a number and a
// string are kept as they are).
var shapeOps = map[string]bool{"type": true, "present": true, "optional": true, "not_empty": true, "truthy": true}

// yamlRaw adds what one YAML file may read through raw to t.
func yamlRaw(src []byte, t *readTree) {
	var root yaml.Node
	err := yaml.Unmarshal(src, &root)
	yamlRawSource(src, &root, err, t)
}

// yamlRawSource is yamlRaw of the file src parsed into root (err: it does
// not parse).
func yamlRawSource(src []byte, root *yaml.Node, err error, t *readTree) {
	if !hasRawWord(src) && !bytes.Contains(src, []byte("$")) {
		return // no path through raw, no let or context that may hold it
	}
	if err != nil {
		t.add(nil, true)
		return
	}
	w := rawWalk{t: t, givens: map[string][]string{}, same: map[*yaml.Node]bool{}}
	w.ids(root, 0)
	w.node(root, nil, 0)
}

// proseKeys hold a rule's text for people, not paths.
var proseKeys = map[string]bool{"description": true, "fix": true, "example": true, "title": true}

type rawRule struct {
	elem  []string
	joins map[string][]string // let name -> the path of its join; nil: a rule's findings
}

type rawWalk struct {
	t      *readTree
	givens map[string][]string // a rule's id -> its given, for a join of rule:ID
	// same are the arguments of same_as read as the path they compare
	// with (sameCondition): not read whole again.
	same map[*yaml.Node]bool
}

// ids finds the given of each rule of the file that has an id.
func (w *rawWalk) ids(n *yaml.Node, depth int) {
	if depth > 64 || n.Kind == yaml.AliasNode {
		return
	}
	if n.Kind == yaml.MappingNode {
		id, g := mapValue(n, "id"), mapValue(n, "given")
		if id != nil && g != nil && id.Kind == yaml.ScalarNode && g.Kind == yaml.ScalarNode {
			w.givens[id.Value] = givenPath(g.Value)
		}
	}
	for _, c := range n.Content {
		w.ids(c, depth+1)
	}
}

func (w *rawWalk) node(n *yaml.Node, r *rawRule, depth int) {
	if depth > 64 { // an alias loop or a file deeper than any rule
		w.t.add(nil, true)
		return
	}
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			w.node(c, r, depth+1)
		}
	case yaml.AliasNode:
		w.node(n.Alias, r, depth+1)
	case yaml.ScalarNode:
		if !w.same[n] {
			w.scalar(n.Value, r, nil)
		}
	case yaml.MappingNode:
		if g := mapValue(n, "given"); g != nil && g.Kind == yaml.ScalarNode {
			r = &rawRule{elem: givenPath(g.Value), joins: map[string][]string{}}
			if hasRawWord(g.Value) {
				w.t.add(r.elem, true) // the element is inside raw: the rule reads it
			}
			if lets := mapValue(n, "let"); lets != nil && lets.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(lets.Content); i += 2 {
					if j := mapValue(lets.Content[i+1], "join"); j != nil {
						if id, ok := strings.CutPrefix(j.Value, "rule:"); ok {
							r.joins[lets.Content[i].Value] = w.givens[id] // nil when not in this file: unknown
						} else {
							r.joins[lets.Content[i].Value] = givenPath(j.Value)
						}
					}
				}
			}
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if proseKeys[k.Value] && v.Kind == yaml.ScalarNode {
				continue // a rule's description, fix or example: prose, not paths
			}
			if !(k.Value == "given" && r != nil && v.Kind == yaml.ScalarNode) {
				w.scalar(k.Value, r, v)
			}
			if r != nil && (k.Value == "join" || k.Value == "distinct") {
				// A let's join and distinct paths start at the document
				// (join: 'raw.functions[*]'), not at the rule's element.
				w.node(v, &rawRule{joins: map[string][]string{}}, depth+1)
				continue
			}
			w.node(v, r, depth+1)
		}
	}
}

// mapValue is the value of key in the mapping n, or nil.
func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// scalar adds the reads of the paths in s: a key (cond its value) or any
// other text (a value, a message template).
func (w *rawWalk) scalar(s string, r *rawRule, cond *yaml.Node) {
	for start, end := nextPathTok(s, 0); start >= 0; start, end = nextPathTok(s, end) {
		tok := s[start:end]
		segs := tokenPath(tok)
		hasRaw := false
		for _, seg := range segs {
			hasRaw = hasRaw || seg == "raw"
		}
		isDollar := strings.HasPrefix(tok, "$")
		if !hasRaw && !isDollar {
			continue
		}
		if r == nil {
			if hasRaw {
				w.t.add(nil, true) // raw outside any rule: whose element?
			}
			continue
		}
		bases, rest, ok := r.bases(segs)
		if !ok {
			if hasRaw {
				w.t.add(nil, true)
			}
			continue
		}
		if !hasRaw {
			// A join's element, a group's or the previous element,
			// taken whole ($answered.first, {{json $previous}}): its raw
			// with it.
			if len(rest) == 0 && segs[0] != "$message" && segs[0] != "$tool" && segs[0] != "$entry" && segs[0] != "$document" {
				for _, b := range bases {
					w.t.add(b, true)
				}
			}
			continue
		}
		shape := cond != nil && tok == s && shapeCondition(cond) ||
			endsTypeHead(s[:start]) && startsTypeTail(s[end:])
		if !shape && cond != nil && tok == s {
			if args, ok := w.sameCondition(cond, r, pathSet(bases, rest)); ok {
				for _, a := range args {
					w.same[a] = true
				}
				for _, b := range bases {
					w.t.addSame(append(append([]string{}, b...), rest...))
				}
				continue
			}
		}
		for _, b := range bases {
			w.t.add(append(append([]string{}, b...), rest...), !shape)
		}
	}
}

// tokenPath turns a path as written (messages[*].raw, $message.raw.x) into
// segments.
func tokenPath(tok string) []string {
	var out []string
	for _, s := range strings.Split(tok, ".") {
		name, each := strings.CutSuffix(s, "[*]")
		out = append(out, name)
		if each {
			out = append(out, "*")
		}
	}
	return out
}

// bases are the document paths a path of the rule starts from, and the rest
// of the path: a context's, a join's elements, the rule's element (and, for
// a path with no context, the element of each join too: a join's where and
// on read from its own elements). ok is false when it cannot tell.
func (r *rawRule) bases(segs []string) (bases [][]string, rest []string, ok bool) {
	head := segs[0]
	if !strings.HasPrefix(head, "$") {
		bases = append(bases, r.elem)
		for _, j := range r.joins {
			if j == nil {
				return nil, nil, false
			}
			bases = append(bases, j, concat(r.elem, j))
		}
		return bases, segs, noDollar(segs)
	}
	rest = segs[1:]
	switch head {
	case "$document":
		bases = [][]string{nil}
	case "$message":
		bases = [][]string{{"messages", "*"}}
	case "$tool":
		bases = [][]string{{"tools", "*"}}
	case "$entry":
		bases = [][]string{{"entries", "*"}}
	case "$previous":
		bases = [][]string{r.elem}
	case "$group":
		bases = [][]string{r.elem}
		rest = skipPick(rest)
	default:
		j, isJoin := r.joins[head[1:]]
		if !isJoin {
			// Another let: a text, a count, a number; none holds raw.
			return nil, nil, !slicesHasRaw(segs)
		}
		if j == nil {
			return nil, nil, false
		}
		bases = [][]string{j, concat(r.elem, j)}
		rest = skipPick(rest)
	}
	return bases, rest, noDollar(rest)
}

// skipPick drops the first, last or an index of a list of elements.
func skipPick(rest []string) []string {
	if len(rest) > 0 && (rest[0] == "first" || rest[0] == "last" || isDigits(rest[0])) {
		return rest[1:]
	}
	return rest
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

func noDollar(segs []string) bool {
	for _, s := range segs {
		if strings.HasPrefix(s, "$") {
			return false
		}
	}
	return true
}

func slicesHasRaw(segs []string) bool {
	for _, s := range segs {
		if s == "raw" {
			return true
		}
	}
	return false
}

// shapeCondition reports whether a condition reads only its value's shape.
func shapeCondition(n *yaml.Node) bool {
	switch n.Kind {
	case yaml.ScalarNode:
		return n.Value == "present" || n.Value == "absent"
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			op, arg := n.Content[i].Value, n.Content[i+1]
			switch {
			case op == "not":
				if !shapeCondition(arg) {
					return false
				}
			case !shapeOps[op]:
				return false
			}
		}
		return true
	}
	return false
}

// sameCondition reports whether a condition on a path that resolves to
// paths reads only its value's shape and whether it is the same as the
// value at those same paths of another element: its tests are shape
// operators, same_as of a path that resolves to the same document paths
// ($previous.raw.content for raw.content), or not of those. Two values at
// one path of the document are projected alike, so a stand-in that keeps
// equality serves both. args are the same_as arguments.
func (w *rawWalk) sameCondition(n *yaml.Node, r *rawRule, paths string) (args []*yaml.Node, ok bool) {
	if n.Kind != yaml.MappingNode {
		return nil, false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		op, arg := n.Content[i].Value, n.Content[i+1]
		switch {
		case op == "not":
			if shapeCondition(arg) {
				continue
			}
			more, ok := w.sameCondition(arg, r, paths)
			if !ok {
				return nil, false
			}
			args = append(args, more...)
		case op == "same_as":
			if arg.Kind != yaml.ScalarNode || !isPathTok(arg.Value) {
				return nil, false
			}
			bases, rest, ok := r.bases(tokenPath(arg.Value))
			if !ok || pathSet(bases, rest) != paths {
				return nil, false
			}
			args = append(args, arg)
		case !shapeOps[op]:
			return nil, false
		}
	}
	return args, len(args) > 0
}

// pathSet names the document paths of bases followed by rest, sorted.
func pathSet(bases [][]string, rest []string) string {
	var out []string
	for _, b := range bases {
		out = append(out, strings.Join(append(append([]string{}, b...), rest...), "."))
	}
	slices.Sort(out)
	return strings.Join(slices.Compact(out), "\n")
}

// rawTrees is what t says the rules read of a record's raw form and of a
// message's (document.Fields.WithRaw).
func rawTrees(t *readTree) (record, message *document.RawTree) {
	return toRawTree(sub(t, "raw")), toRawTree(sub(sub(sub(t, "messages"), "*"), "raw"))
}

// sub is what t reads below its member (or element, "*": any) seg.
func sub(t *readTree, seg string) *readTree {
	if t == nil {
		return nil
	}
	if t.all {
		return t
	}
	var out *readTree
	for k, kid := range t.kids {
		if k == seg || k == "*" || seg == "*" {
			if out == nil {
				out = &readTree{}
			}
			out.merge(nil, kid)
		}
	}
	return out
}

func toRawTree(t *readTree) *document.RawTree {
	if t == nil {
		return nil
	}
	if t.all {
		return &document.RawTree{All: true}
	}
	out := &document.RawTree{Same: t.same}
	for k, kid := range t.kids {
		if out.Kids == nil {
			out.Kids = map[string]*document.RawTree{}
		}
		out.Kids[k] = toRawTree(kid)
	}
	return out
}

func concat(a, b []string) []string { return append(append([]string{}, a...), b...) }

// isPathTok reports whether s is one path as written, whole (nextPathTok).
func isPathTok(s string) bool {
	start, end := nextPathTok(s, 0)
	return start == 0 && end == len(s)
}
