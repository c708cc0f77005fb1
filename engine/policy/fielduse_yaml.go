package policy

import (
	"bytes"
	"strings"
)

// YAML rules address the document by dotted paths, in given, where, assert,
// let, cases and message templates, and the evaluator reads some members
// itself (index, path, line and role; "<name>_path" beside a member). So a
// YAML file may read a member when it names it anywhere, comments included:
// a path of the document is read when the file names each of its members.
// A condition on the element itself ($) or on a context element as a whole
// ($message …) reads that element whole.

// yamlImplicit are the members the YAML evaluator reads without a rule
// naming them: the element's index, path and line for its findings, role
// for the walks that visit one role, the document's format and profile for
// a rule's formats and profiles. (A rule's mode is its "mode" key: named.)
var yamlImplicit = []string{"index", "path", "line", "lines", "role", "format", "profile"}

// yaml adds what one YAML rule file may read. It is one pass over the file
// for each of the patterns below (the reference is five regular
// expressions, fielduse_yaml_test.go; a fifth of start-up went to them):
//
//   - every word ([A-Za-z_][A-Za-z0-9_]*) names a member, and its "_path";
//   - the givens (?m)^\s*-?\s*given\s*:\s*["']?([^"'#\s]*) name elements,
//     not members: the rest of the file is read without them;
//   - a "$" not followed by [A-Za-z0-9_] in the rest reads the element of
//     each given of its rule whole (yamlRuleChunks: a "$" of one rule does
//     not read what another rule's given names, a whole document), and
//     everything when a "given\s*:" of the rule is not such a given; a "$"
//     on lines of no rule reads each given of the file;
//   - \$(message|tool|entry|document)([^.A-Za-z0-9_]|$) in the rest reads
//     that context whole.
func (s *fieldSet) yaml(src []byte) {
	givens, rest := yamlGivens(src)
	s.yamlWords(src)
	for _, n := range yamlImplicit {
		s.names[n] |= named
	}
	t := &s.tree
	if yamlSelfRef(rest) {
		for _, c := range yamlRuleChunks(src) {
			cg, crest := yamlGivens(c)
			if !yamlSelfRef(crest) {
				continue
			}
			if len(cg) == 0 && yamlAnyGivens(c) == 0 {
				cg = givens // a "$" outside any rule's lines: it may be any rule's
			}
			for _, g := range cg {
				t.add(givenPath(g), true)
			}
			if yamlAnyGivens(c) != len(yamlGivensOnly(c)) {
				t.add(nil, true) // a given written otherwise (flow style): its element may be anything
			}
		}
	}
	yamlContexts(rest, func(ctx string) {
		switch ctx {
		case "message":
			t.add([]string{"messages", "*"}, true)
		case "tool":
			t.add([]string{"tools", "*"}, true)
		case "entry":
			t.add([]string{"entries", "*"}, true)
		default:
			t.add(nil, true)
		}
	})
}

// The byte classes of the patterns. Go's \s is [\t\n\f\r ]; a byte of a
// multi-byte (or invalid) UTF-8 sequence is in none of the classes, as its
// rune is in none.
func isSpace(c byte) bool    { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }
func isWordHead(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isWordByte(c byte) bool { return isWordHead(c) || '0' <= c && c <= '9' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// yamlWords adds each word of src and its "_path" to the names.
func (s *fieldSet) yamlWords(src []byte) {
	var buf []byte
	for i := 0; i < len(src); {
		if !isWordHead(src[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(src) && isWordByte(src[j]) {
			j++
		}
		w := src[i:j]
		// The lookups do not copy w; only a new name does.
		if v := s.names[string(w)]; v&pathed == 0 {
			s.names[string(w)] = v | named | pathed
			buf = append(append(buf[:0], w...), "_path"...)
			s.names[string(buf)] |= named
		}
		i = j
	}
}

// yamlGivens finds the givens as the leftmost-first, non-overlapping matches
// of the pattern would, and returns what each captures and src without them.
// A match starts at the start of a line; every quantifier in it is greedy
// and none has to give back (what follows a run of spaces is never a space,
// a "-" never a "g"), so one pass decides each line.
func yamlGivens(src []byte) (givens []string, rest []byte) {
	last := 0 // the end of the latest match
	for p := 0; p < len(src); {
		q := skipSpace(src, p)
		end, capture, ok := yamlGivenAt(src, q)
		if !ok {
			// Every line start up to q skips the same spaces to q and
			// fails there too: go on at the next line after q.
			nl := bytes.IndexByte(src[q:], '\n')
			if nl < 0 {
				break
			}
			p = q + nl + 1
			continue
		}
		givens = append(givens, string(capture))
		rest = append(rest, src[last:p]...)
		last = end
		// The next match may start where this one ends, if that is a line
		// start; else at the next one.
		if src[end-1] == '\n' {
			p = end
			continue
		}
		nl := bytes.IndexByte(src[end:], '\n')
		if nl < 0 {
			break
		}
		p = end + nl + 1
	}
	if last == 0 {
		return givens, src
	}
	return givens, append(rest, src[last:]...)
}

// yamlGivenAt matches -?\s*given\s*:\s*["']?([^"'#\s]*) at i (the spaces
// before it skipped).
func yamlGivenAt(src []byte, i int) (end int, capture []byte, ok bool) {
	if i < len(src) && src[i] == '-' {
		i = skipSpace(src, i+1)
	}
	if !bytes.HasPrefix(src[i:], []byte("given")) {
		return 0, nil, false
	}
	i = skipSpace(src, i+len("given"))
	if i == len(src) || src[i] != ':' {
		return 0, nil, false
	}
	i = skipSpace(src, i+1)
	if i < len(src) && (src[i] == '"' || src[i] == '\'') {
		i++
	}
	from := i
	for i < len(src) && !isSpace(src[i]) && src[i] != '"' && src[i] != '\'' && src[i] != '#' {
		i++
	}
	return i, src[from:i], true
}

// yamlAnyGivens counts the matches of given\s*: in src ("given" cannot
// overlap itself, so every occurrence is a match or none).
func yamlAnyGivens(src []byte) int {
	n := 0
	for i := 0; ; {
		k := bytes.Index(src[i:], []byte("given"))
		if k < 0 {
			return n
		}
		i += k + len("given")
		if j := skipSpace(src, i); j < len(src) && src[j] == ':' {
			n++
			i = j + 1
		}
	}
}

// yamlSelfRef reports whether b has a "$" not followed by [A-Za-z0-9_].
func yamlSelfRef(b []byte) bool {
	for i := 0; i < len(b); i++ {
		if b[i] == '$' && (i+1 == len(b) || !isWordByte(b[i+1])) {
			return true
		}
	}
	return false
}

var yamlContextNames = []string{"message", "tool", "entry", "document"}

// yamlContexts calls found with the context of each match of
// \$(message|tool|entry|document)([^.A-Za-z0-9_]|$) in b, in order.
func yamlContexts(b []byte, found func(string)) {
	for i := 0; i < len(b); i++ {
		if b[i] != '$' {
			continue
		}
		for _, name := range yamlContextNames {
			if !bytes.HasPrefix(b[i+1:], []byte(name)) {
				continue
			}
			j := i + 1 + len(name)
			if j < len(b) && (b[j] == '.' || isWordByte(b[j])) {
				break // the names are no prefix of each other: no other can match
			}
			found(name)
			// The match takes the byte after the name: a "$" there does
			// not start the next match. (Any other byte cannot be a "$".)
			i = j - 1
			if j < len(b) && b[j] == '$' {
				i = j
			}
			break
		}
	}
}

// givenPath turns a given (messages[*].tool_calls[*]) into a path.
func givenPath(g string) []string {
	g = strings.TrimPrefix(g, "$")
	if g == "" || g == "document" {
		return nil
	}
	return tokenPath(g)
}

// yamlGivensOnly is the givens of yamlGivens.
func yamlGivensOnly(src []byte) []string {
	g, _ := yamlGivens(src)
	return g
}

// yamlRuleChunks splits src into the lines of each rule: a chunk starts at
// each line that is a list item ("-" then a space or the line's end) at the
// least indentation any list item of the file has. A rules list is the
// file's outermost list, and no line inside a rule is a list item that
// shallow, so each chunk holds whole rules (several when an outer list
// holds them); the lines before the first item are a chunk of their own.
func yamlRuleChunks(src []byte) [][]byte {
	var starts []int
	least := -1
	for p := 0; p < len(src); {
		q := p
		for q < len(src) && src[q] == ' ' {
			q++
		}
		if q < len(src) && src[q] == '-' && (q+1 == len(src) || isSpace(src[q+1])) {
			switch ind := q - p; {
			case least < 0 || ind < least:
				least, starts = ind, append(starts[:0], p)
			case ind == least:
				starts = append(starts, p)
			}
		}
		nl := bytes.IndexByte(src[p:], '\n')
		if nl < 0 {
			break
		}
		p += nl + 1
	}
	var chunks [][]byte
	from := 0
	for _, s := range starts {
		if s > from {
			chunks = append(chunks, src[from:s])
		}
		from = s
	}
	return append(chunks, src[from:])
}
