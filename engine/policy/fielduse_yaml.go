package policy

import (
	"regexp"
	"strings"
)

// YAML rules address the document by dotted paths, in given, where, assert,
// let, cases and message templates, and the evaluator reads some members
// itself (index, path, line and role; "<name>_path" beside a member). So a
// YAML file may read a member when it names it anywhere, comments included:
// a path of the document is read when the file names each of its members.
// A condition on the element itself ($) or on a context element as a whole
// ($message …) reads that element whole.
var (
	yamlWord     = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	yamlGiven    = regexp.MustCompile(`(?m)^\s*-?\s*given\s*:\s*["']?([^"'#\s]*)`)
	yamlAnyGiven = regexp.MustCompile(`given\s*:`)
	yamlSelf     = regexp.MustCompile(`\$([^A-Za-z0-9_]|$)`)
	yamlCtx      = regexp.MustCompile(`\$(message|tool|entry|document)([^.A-Za-z0-9_]|$)`)
)

// yamlImplicit are the members the YAML evaluator reads without a rule
// naming them: the element's index, path and line for its findings, role
// for the walks that visit one role, the document's format and profile for
// a rule's formats and profiles. (A rule's mode is its "mode" key: named.)
var yamlImplicit = []string{"index", "path", "line", "lines", "role", "format", "profile"}

// yaml adds what one YAML rule file may read.
func (s *fieldSet) yaml(src []byte) {
	givens := yamlGiven.FindAllSubmatch(src, -1)
	rest := yamlGiven.ReplaceAll(src, nil) // a given names the element, it reads no member of it
	for _, w := range yamlWord.FindAll(src, -1) {
		s.names[string(w)] = true
		s.names[string(w)+"_path"] = true
	}
	for _, n := range yamlImplicit {
		s.names[n] = true
	}
	t := &s.tree
	if yamlSelf.Match(rest) {
		for _, g := range givens {
			t.add(givenPath(string(g[1])), true)
		}
		if len(yamlAnyGiven.FindAllIndex(src, -1)) != len(givens) {
			t.add(nil, true) // a given written otherwise (flow style): its element may be anything
		}
	}
	for _, m := range yamlCtx.FindAllSubmatch(rest, -1) {
		switch string(m[1]) {
		case "message":
			t.add([]string{"messages", "*"}, true)
		case "tool":
			t.add([]string{"tools", "*"}, true)
		case "entry":
			t.add([]string{"entries", "*"}, true)
		default:
			t.add(nil, true)
		}
	}
}

// givenPath turns a given (messages[*].tool_calls[*]) into a path.
func givenPath(g string) []string {
	g = strings.TrimPrefix(g, "$")
	if g == "" || g == "document" {
		return nil
	}
	var out []string
	for _, s := range strings.Split(g, ".") {
		name, each := strings.CutSuffix(s, "[*]")
		out = append(out, name)
		if each {
			out = append(out, "*")
		}
	}
	return out
}
