// Package config reads .chatlint.yaml, the file a dataset repository keeps
// to say which packs run, how severe each rule is, which files relax which
// rule, what is suppressed and how a CI run reports. Every key is checked: an
// unknown key, a bad value or (once the rules are known) an unknown rule id
// is an error naming the file and line, never silently ignored.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
)

// Keys are the top-level keys of the file.
var Keys = []string{"allow_no_tools", "baseline", "fail_on", "format", "max_line_size", "max_record_values", "output", "overrides", "packs", "profile", "rule_timeout", "rules", "suppressions", "tool_calls"}

// Names are the file names looked for, in order.
var Names = []string{".chatlint.yaml", ".chatlint.yml"}

// Level is a rule's configured severity; Off turns the rule off.
type Level string

const Off Level = "off"

// Severity returns the level's severity, or 0 for Off.
func (l Level) Severity() finding.Severity {
	s, _ := finding.ParseSeverity(string(l))
	return s
}

// Config is a parsed .chatlint.yaml. Paths in it (packs, baseline, output
// files, override globs) are relative to Dir.
type Config struct {
	Path string // the file read
	Dir  string // its folder

	Packs        []string
	Rules        map[string]Level
	Overrides    []Override
	Suppressions []Suppression
	FailOn       string
	Format       string
	ToolCalls    string
	AllowNoTools bool
	Profile      string // rule profile; checked against the packs' profiles by check
	MaxLineSize  string // as --max-line-size; parsed by check
	// MaxRecordValues is as --max-record-values; parsed by check.
	MaxRecordValues string
	Output          []string
	Baseline        string
	RuleTimeout     time.Duration

	ruleLines map[string][]ref // rule id -> where the file names it
	keyLines  map[string]int   // top-level key -> its line

	// The last file LevelFor placed: not safe for concurrent use.
	lastFile, lastRel string
	lastInside        bool
}

// Override changes rule levels for the files its globs match.
type Override struct {
	Files []string // globs relative to the config's folder; ** spans folders
	Rules map[string]Level
	Line  int
}

// Suppression silences one rule on one record, with a reason kept in review.
type Suppression struct {
	Rule   string
	Record string // the finding's record: the conversation or session id
	Reason string
	Line   int
}

type ref struct{ line int }

// Error is a problem in the file, at a line.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// Find returns the config file in dir or its nearest parent up to the root
// of the repository dir is in (the nearest folder holding .git), or ""
// when there is none. Outside a repository only dir itself is looked in: a
// shared parent (/tmp, a CI runner's work root) can hold a config anyone
// planted, and it must not decide what a run reports or where it writes.
// A config found is refused (an *UnsafeError) unless it is owned by the
// user and writable by nobody else, as git refuses a repository another
// user owns.
func Find(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	top := repoRoot(dir)
	if top == "" {
		top = dir
	}
	for {
		for _, n := range Names {
			p := filepath.Join(dir, n)
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
				return p, checkOwner(p, fi)
			}
		}
		parent := filepath.Dir(dir)
		if dir == top || parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// repoRoot returns the nearest folder from dir up that holds .git (a
// folder, or a file in a worktree), or "".
func repoRoot(dir string) string {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// UnsafeError is a config file found by Find that another user could have
// written.
type UnsafeError struct {
	Path   string
	Reason string // "owned by uid 0, not by you (uid 1000)", "writable by group or others (mode 0666)"
}

func (e *UnsafeError) Error() string {
	return fmt.Sprintf("%s: refused: the file is %s, so another user could have planted or changed it; "+
		"make it yours and writable only by you (chown, chmod go-w), pass it with --config FILE, or run with --no-config", e.Path, e.Reason)
}

// Load reads and checks a config file.
func Load(path string) (*Config, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// Parse checks src, read from path.
func Parse(path string, src []byte) (*Config, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	c := &Config{Path: path, Dir: filepath.Dir(abs), Rules: map[string]Level{}, ruleLines: map[string][]ref{}}
	p := parser{file: path}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, p.yamlError(err)
	}
	if len(doc.Content) == 0 { // an empty file is a valid, empty config
		return c, nil
	}
	root := doc.Content[0]
	p.mapping(root, "the config", map[string]func(*yaml.Node){
		"packs":             func(n *yaml.Node) { c.Packs = p.strings(n, "packs") },
		"rules":             func(n *yaml.Node) { c.Rules = p.levels(n, c) },
		"overrides":         func(n *yaml.Node) { c.Overrides = p.overrides(n, c) },
		"suppressions":      func(n *yaml.Node) { c.Suppressions = p.suppressions(n, c) },
		"fail_on":           func(n *yaml.Node) { c.FailOn = p.oneOf(n, "fail_on", "error", "warning", "info", "never") },
		"format":            func(n *yaml.Node) { c.Format = p.oneOf(n, "format", formatNames()...) },
		"tool_calls":        func(n *yaml.Node) { c.ToolCalls = p.oneOf(n, "tool_calls", "inline", "structured") },
		"allow_no_tools":    func(n *yaml.Node) { p.decode(n, "allow_no_tools", &c.AllowNoTools) },
		"profile":           func(n *yaml.Node) { c.Profile = p.str(n, "profile") },
		"max_line_size":     func(n *yaml.Node) { c.MaxLineSize = p.str(n, "max_line_size") },
		"max_record_values": func(n *yaml.Node) { c.MaxRecordValues = p.str(n, "max_record_values") },
		"output":            func(n *yaml.Node) { c.Output = p.strings(n, "output") },
		"baseline":          func(n *yaml.Node) { c.Baseline = p.str(n, "baseline") },
		"rule_timeout":      func(n *yaml.Node) { c.RuleTimeout = p.duration(n, "rule_timeout") },
	})
	if len(p.errs) > 0 {
		return nil, errors.Join(p.errs...)
	}
	c.keyLines = map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		c.keyLines[root.Content[i].Value] = root.Content[i].Line
	}
	return c, nil
}

// Where names a top-level key as an error about its value should: "FILE:LINE: key".
// A value the command checks later (a size, a profile, the baseline file) is
// reported there, not as the flag it stands in for.
func (c *Config) Where(key string) string {
	if line, ok := c.keyLines[key]; ok {
		return fmt.Sprintf("%s:%d: %s", c.Path, line, key)
	}
	return c.Path + ": " + key
}

// formatNames are the input formats, from the one list the document
// package keeps, so a new format is accepted here without a second edit.
func formatNames() []string {
	out := make([]string, len(document.Formats))
	for i, f := range document.Formats {
		out[i] = string(f)
	}
	return out
}

// CheckRules reports every rule id the file names that is not a known rule.
func (c *Config) CheckRules(known func(id string) bool) error {
	return c.CheckRulesHint(known, func(string) string { return "" })
}

// CheckRulesHint is CheckRules with hint completing each message (with the
// closest rule ids, say).
func (c *Config) CheckRulesHint(known func(id string) bool, hint func(id string) string) error {
	var errs []error
	ids := make([]string, 0, len(c.ruleLines))
	for id := range c.ruleLines {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if known(id) {
			continue
		}
		for _, r := range c.ruleLines[id] {
			errs = append(errs, &Error{File: c.Path, Line: r.line, Msg: fmt.Sprintf("unknown rule %q (chatlint rules lists them)%s", id, hint(id))})
		}
	}
	slices.SortFunc(errs, func(a, b error) int { return a.(*Error).Line - b.(*Error).Line })
	return errors.Join(errs...)
}

// Resolve makes a path from the file relative to the config's folder.
func (c *Config) Resolve(p string) string {
	if p == "" || filepath.IsAbs(p) || strings.HasPrefix(p, "builtin:") {
		return p
	}
	return filepath.Join(c.Dir, p)
}
