package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/chatlint/chatlint/internal/codexgen"
)

// Codex sessions (-format codex): long agent sessions, one Codex CLI
// rollout file per session in the directory -o names, as
// internal/codexgen writes them. Each session has 2,000-20,000 lines
// (about 1k-10k messages: about half a rollout's lines are messages), drawn
// from the session's own stream; sessions differ in length, their common
// prefix is the same text. No defects are placed.

const (
	streamCodex   = 4
	codexMinLines = 2000
	codexMaxLines = 20000
)

func writeCodex(o *options, _ io.Writer) (st stats, man []manifestEntry, err error) {
	dir := o.out
	if dir == "-" || filepath.Ext(dir) != "" {
		return st, nil, errors.New("-format codex writes a directory: give -o DIR")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return st, nil, err
	}
	if old, _ := filepath.Glob(filepath.Join(dir, "rollout-*.jsonl")); len(old) > 0 {
		return st, nil, fmt.Errorf("%s already holds rollouts (%s, …); remove them or use an empty directory", dir, filepath.Base(old[0]))
	}
	g := newGenerator(o.seed)
	for i := uint64(0); ; i++ {
		if o.sessions > 0 && i >= uint64(o.sessions) || o.size > 0 && st.bytes >= o.size {
			break
		}
		g.reseed(streamCodex, i)
		lines := codexgen.Rollout(g.between(codexMinLines, codexMaxLines))
		data := append(bytes.Join(lines, []byte("\n")), '\n')
		if o.size > 0 && !fits(st.bytes, len(data), o.size, st.sessions) {
			break
		}
		file := filepath.Join(dir, fmt.Sprintf("rollout-2026-01-02T00-00-00-%05d.jsonl", i+1))
		if err := os.WriteFile(file, data, 0o644); err != nil {
			return st, nil, err
		}
		st.sessions++
		st.records += len(lines)
		st.bytes += int64(len(data))
	}
	return st, nil, nil
}
