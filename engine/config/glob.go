package config

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// checkGlob rejects a pattern path.Match cannot read.
func checkGlob(pattern string) error {
	for _, seg := range strings.Split(pattern, "/") {
		if seg == "**" {
			continue
		}
		if _, err := path.Match(seg, ""); err != nil {
			return fmt.Errorf("bad glob %q: %v", pattern, err)
		}
	}
	return nil
}

// matchGlob matches a slash-separated relative path against a pattern in
// which * and ? stay inside one folder and a ** segment spans any number of
// folders (zero included): data/legacy/** matches every file under
// data/legacy, **/*.jsonl every JSONL file.
func matchGlob(pattern, name string) bool {
	return matchSegs(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func matchSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if matchSegs(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// relative returns file relative to the config's folder with slashes, or
// false when it lies outside that folder (or is not a file, like <stdin>).
func (c *Config) relative(file string) (string, bool) {
	if file == c.lastFile { // findings come grouped by file
		return c.lastRel, c.lastInside
	}
	rel, inside := c.relativeUncached(file)
	c.lastFile, c.lastRel, c.lastInside = file, rel, inside
	return rel, inside
}

func (c *Config) relativeUncached(file string) (string, bool) {
	if strings.HasPrefix(file, "<") {
		return "", false
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(c.Dir, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// LevelFor returns the level the file sets for a rule in a file: the last
// matching override that names the rule wins over the top-level rules map.
// ok is false when the config says nothing about the rule for that file.
// It is not safe for concurrent use (it remembers the last file placed).
func (c *Config) LevelFor(rule, file string) (lvl Level, ok bool) {
	lvl, ok = c.Rules[rule]
	if len(c.Overrides) == 0 {
		return lvl, ok
	}
	rel, inside := c.relative(file)
	if !inside {
		return lvl, ok
	}
	for _, o := range c.Overrides {
		l, named := o.Rules[rule]
		if !named {
			continue
		}
		for _, g := range o.Files {
			if matchGlob(g, rel) {
				lvl, ok = l, true
				break
			}
		}
	}
	return lvl, ok
}
