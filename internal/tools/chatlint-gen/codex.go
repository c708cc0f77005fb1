package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/chatlint/chatlint/internal/claudecodegen"
	"github.com/chatlint/chatlint/internal/codexgen"
)

// Codex sessions (-format codex): long agent sessions, one Codex CLI
// rollout file per session in the directory -o names, as
// internal/codexgen writes them. Claude Code sessions (-format
// claude-code): one session file per session, as internal/claudecodegen
// writes them (chains of entries, parallel results hanging off the chain,
// sidechains, compaction boundaries). Each session has 2,000-20,000 lines
// (about 1k-10k messages: about half a session's lines are messages), drawn
// from the session's own stream, or exactly -lines; sessions differ in
// length, their common prefix is the same text. No defects are placed.

const (
	streamCodex      = 4
	streamClaudeCode = 5
	codexMinLines    = 2000
	codexMaxLines    = 20000
)

func writeCodex(o *options, w io.Writer) (st stats, man []manifestEntry, err error) {
	return writeSessions(o, streamCodex, codexgen.Rollout, "rollout-2026-01-02T00-00-00-%05d.jsonl")
}

func writeClaudeCode(o *options, w io.Writer) (st stats, man []manifestEntry, err error) {
	return writeSessions(o, streamClaudeCode, claudecodegen.Session, "session-%05d.jsonl")
}

// writeSessions writes one file per session, named by pattern, each of
// about the lines gen is asked for.
func writeSessions(o *options, stream uint64, gen func(lines int) [][]byte, pattern string) (st stats, man []manifestEntry, err error) {
	dir := o.out
	if dir == "-" || filepath.Ext(dir) != "" {
		return st, nil, errors.New("-format codex writes a directory: give -o DIR")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return st, nil, err
	}
	if old, _ := filepath.Glob(filepath.Join(dir, strings.Replace(pattern, "%05d", "*", 1))); len(old) > 0 {
		return st, nil, fmt.Errorf("%s already holds sessions (%s, …); remove them or use an empty directory", dir, filepath.Base(old[0]))
	}
	g := newGenerator(o.seed)
	for i := uint64(0); ; i++ {
		if o.sessions > 0 && i >= uint64(o.sessions) || o.size > 0 && st.bytes >= o.size {
			break
		}
		g.reseed(stream, i)
		n := o.lines
		if n == 0 {
			n = g.between(codexMinLines, codexMaxLines)
		}
		lines := gen(n)
		data := append(bytes.Join(lines, []byte("\n")), '\n')
		if o.size > 0 && !fits(st.bytes, len(data), o.size, st.sessions) {
			break
		}
		file := filepath.Join(dir, fmt.Sprintf(pattern, i+1))
		if err := os.WriteFile(file, data, 0o644); err != nil {
			return st, nil, err
		}
		st.sessions++
		st.records += len(lines)
		st.bytes += int64(len(data))
	}
	return st, nil, nil
}
