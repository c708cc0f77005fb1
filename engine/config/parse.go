package config

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// parser walks the YAML tree, collecting every error with its line rather
// than stopping at the first.
type parser struct {
	file string
	errs []error
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.file, Line: n.Line, Msg: fmt.Sprintf(format, args...)})
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

func (p *parser) yamlError(err error) error {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		var line int
		fmt.Sscan(m[1], &line)
		return &Error{File: p.file, Line: line, Msg: m[2]}
	}
	return fmt.Errorf("%s: %v", p.file, err)
}

// mapping calls the handler of each key of a mapping node; a key without a
// handler is an error that lists the valid keys.
func (p *parser) mapping(n *yaml.Node, what string, keys map[string]func(*yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s must be a mapping", what)
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		h, ok := keys[k.Value]
		if !ok {
			valid := make([]string, 0, len(keys))
			for name := range keys {
				valid = append(valid, name)
			}
			slices.Sort(valid)
			p.errorf(k, "unknown key %q in %s (valid keys: %s)", k.Value, what, strings.Join(valid, ", "))
			continue
		}
		if seen[k.Value] {
			p.errorf(k, "key %q is given twice", k.Value)
			continue
		}
		seen[k.Value] = true
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			continue // a key without a value leaves the setting unset
		}
		h(v)
	}
}

func (p *parser) decode(n *yaml.Node, what string, v any) {
	if err := n.Decode(v); err != nil {
		p.errorf(n, "%s: %v", what, strings.TrimPrefix(err.Error(), "yaml: unmarshal errors:\n  "))
	}
}

func (p *parser) str(n *yaml.Node, what string) string {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.errorf(n, "%s must be a string", what)
		return ""
	}
	return n.Value
}

func (p *parser) strings(n *yaml.Node, what string) []string {
	if n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
		return []string{n.Value} // one value needs no list
	}
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "%s must be a list of strings", what)
		return nil
	}
	var out []string
	for _, item := range n.Content {
		if s := p.str(item, what+" item"); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func (p *parser) oneOf(n *yaml.Node, what string, valid ...string) string {
	s := p.str(n, what)
	if s != "" && !slices.Contains(valid, s) {
		p.errorf(n, "%s: %q is not one of %s", what, s, strings.Join(valid, ", "))
		return ""
	}
	return s
}

func (p *parser) duration(n *yaml.Node, what string) time.Duration {
	s := p.str(n, what)
	if s == "" {
		return 0
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		p.errorf(n, "%s: %q is not a positive duration such as 5s or 500ms", what, s)
		return 0
	}
	return d
}

// levels reads a map of rule id to level, remembering where each id is named
// so unknown ids can be reported once the rules are loaded.
func (p *parser) levels(n *yaml.Node, c *Config) map[string]Level {
	out := map[string]Level{}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "rules must map rule ids to off, error, warning or info")
		return out
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		lvl := p.level(v, k.Value)
		if _, dup := out[k.Value]; dup {
			p.errorf(k, "rule %q is given twice", k.Value)
		}
		out[k.Value] = lvl
		c.ruleLines[k.Value] = append(c.ruleLines[k.Value], ref{k.Line})
	}
	return out
}

func (p *parser) level(n *yaml.Node, rule string) Level {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!bool" && n.Value == "false" {
		return Off // rule: false reads as plainly as rule: off
	}
	switch s := p.str(n, "rule "+rule); s {
	case "off", "error", "warning", "info":
		return Level(s)
	case "":
		return Off
	default:
		p.errorf(n, "rule %s: level %q is not one of off, error, warning, info", rule, s)
		return Off
	}
}

func (p *parser) overrides(n *yaml.Node, c *Config) []Override {
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "overrides must be a list of {files, rules}")
		return nil
	}
	var out []Override
	for _, item := range n.Content {
		o := Override{Line: item.Line}
		p.mapping(item, "an override", map[string]func(*yaml.Node){
			"files": func(n *yaml.Node) { o.Files = p.strings(n, "files") },
			"rules": func(n *yaml.Node) { o.Rules = p.levels(n, c) },
		})
		if item.Kind == yaml.MappingNode {
			if len(o.Files) == 0 {
				p.errorf(item, "an override needs files: a list of globs")
			}
			for _, g := range o.Files {
				if err := checkGlob(g); err != nil {
					p.errorf(item, "files: %v", err)
				}
			}
			if o.Rules == nil {
				p.errorf(item, "an override needs rules: a map of rule id to level")
			}
		}
		out = append(out, o)
	}
	return out
}

func (p *parser) suppressions(n *yaml.Node, c *Config) []Suppression {
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "suppressions must be a list of {rule, record, reason}")
		return nil
	}
	var out []Suppression
	for _, item := range n.Content {
		s := Suppression{Line: item.Line}
		p.mapping(item, "a suppression", map[string]func(*yaml.Node){
			"rule": func(n *yaml.Node) {
				s.Rule = p.str(n, "rule")
				c.ruleLines[s.Rule] = append(c.ruleLines[s.Rule], ref{n.Line})
			},
			"record": func(n *yaml.Node) { s.Record = p.str(n, "record") },
			"reason": func(n *yaml.Node) { s.Reason = strings.TrimSpace(p.str(n, "reason")) },
		})
		if item.Kind == yaml.MappingNode {
			for _, f := range [][2]string{{"rule", s.Rule}, {"record", s.Record}, {"reason", s.Reason}} {
				if f[1] == "" {
					p.errorf(item, "a suppression needs %s", f[0])
				}
			}
		}
		out = append(out, s)
	}
	return out
}
