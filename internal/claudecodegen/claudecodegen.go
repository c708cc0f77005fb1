// Package claudecodegen writes long Claude Code sessions for tests and
// benchmarks.
package claudecodegen

import (
	"encoding/json"
	"fmt"
)

// Session returns a deterministic, valid Claude Code session of about
// entries lines, in the shape Claude Code writes to
// ~/.claude/projects/…/SESSION.jsonl (SOURCES.md beside this file cites the
// real ones). It opens with a summary entry naming the last entry; then
// turns of: a file-history snapshot, the user's prompt, the assistant's
// thinking and text lines, one to three tool_use lines of the same API
// message (message.id), a progress entry hanging off each call, the tool
// results (each but the last parented on its own call's line, as Claude
// Code writes parallel results, so they hang off the resumed chain), the
// answer and a turn_duration system entry. Every 25th turn runs a subagent
// whose entries are a sidechain (isSidechain true, its own root) with a
// call and result of its own; every 100th turn is preceded by a compaction
// boundary (parentUuid null, logicalParentUuid the entry before the cut)
// and its summary message. Every seventh result is an error (is_error true:
// the integrity pack's tool-result-flagged reports it); nothing else is
// wrong: the claude-code pack finds nothing.
func Session(entries int) [][]byte {
	g := &gen{}
	g.out = append(g.out, nil) // the summary, written last
	prev := ""
	calls := 0
	for turn := 0; len(g.out) < entries; turn++ {
		if turn > 0 && turn%100 == 0 {
			b := g.entry("system", "", map[string]any{"subtype": "compact_boundary", "content": "Conversation compacted",
				"logicalParentUuid": prev, "level": "info", "isMeta": false,
				"compactMetadata": map[string]any{"trigger": "auto", "preTokens": 150000 + turn}})
			prev = g.entry("user", b, map[string]any{"isCompactSummary": true, "isVisibleInTranscriptOnly": true,
				"message": map[string]any{"role": "user", "content": fmt.Sprintf("This session is being continued from a previous conversation. Summary: turns 0-%d ran the checks of packages p0-p16.", turn-1)}})
		}
		g.snapshot()
		ask := fmt.Sprintf("Step %d: run the checks in package p%d and fix what fails.", turn, turn%17)
		prev = g.entry("user", prev, map[string]any{"message": map[string]any{"role": "user", "content": ask}})
		g.msgs++
		msgID := fmt.Sprintf("msg_%020d", g.msgs)
		prev = g.assistant(prev, msgID, map[string]any{"type": "thinking", "thinking": "I will run the tests of the package first.", "signature": "c2lnbmF0dXJl"}, "")
		prev = g.assistant(prev, msgID, map[string]any{"type": "text", "text": fmt.Sprintf("Running the tests of p%d.", turn%17)}, "")
		n := 1 + turn%3
		var lines []string
		var ids []string
		for k := 0; k < n; k++ {
			calls++
			id := fmt.Sprintf("toolu_%018d", calls)
			stop := ""
			if k == n-1 {
				stop = "tool_use"
			}
			prev = g.assistant(prev, msgID, map[string]any{"type": "tool_use", "id": id, "name": "Bash",
				"input": map[string]any{"command": fmt.Sprintf("go test ./p%d/... -run Test%d", turn%17, k), "description": "Run the tests"}}, stop)
			lines = append(lines, prev)
			ids = append(ids, id)
			g.entry("progress", prev, map[string]any{"data": map[string]any{"type": "bash_progress", "output": "running…"},
				"toolUseID": id, "parentToolUseID": id})
		}
		for k, id := range ids {
			parent := lines[k]
			if k == n-1 {
				parent = prev
			}
			fail := (calls-n+k+1)%7 == 0
			out := fmt.Sprintf("ok  \tbench/p%d\t0.%03ds", turn%17, (calls+k)%1000)
			if fail {
				out = fmt.Sprintf("--- FAIL: Test%d (0.00s)\nFAIL\tbench/p%d\nexit status 1", k, turn%17)
			}
			u := g.entry("user", parent, map[string]any{"message": map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "tool_result", "tool_use_id": id, "content": out, "is_error": fail}}},
				"toolUseResult": map[string]any{"stdout": out, "stderr": "", "interrupted": false}})
			if k == n-1 {
				prev = u
			}
		}
		if turn%25 == 12 {
			prev = g.subagent(prev, turn, &calls)
		}
		g.msgs++
		prev = g.assistant(prev, fmt.Sprintf("msg_%020d", g.msgs), map[string]any{"type": "text",
			"text": fmt.Sprintf("The checks of p%d ran; see the output above.", turn%17)}, "end_turn")
		prev = g.entry("system", prev, map[string]any{"subtype": "turn_duration", "durationMs": 1000 + turn%977, "isMeta": false})
	}
	summary, _ := json.Marshal(map[string]any{"type": "summary", "summary": "Running the package checks", "leafUuid": prev})
	g.out[0] = summary
	return g.out
}

type gen struct {
	out  [][]byte
	n    int // entries with a uuid so far
	msgs int
}

func (g *gen) uuid() string {
	g.n++
	return fmt.Sprintf("00000000-0000-4000-8000-%012d", g.n)
}

func (g *gen) stamp() string {
	s := len(g.out)
	return fmt.Sprintf("2026-01-02T%02d:%02d:%02d.%03dZ", s/360000%24, s/6000%60, s/100%60, s%100*10)
}

// entry writes a conversation entry of type typ, parented on parent (null
// when empty), with the common header and more's members; it returns the
// entry's uuid.
func (g *gen) entry(typ, parent string, more map[string]any) string {
	return g.entrySide(typ, parent, false, more)
}

func (g *gen) entrySide(typ, parent string, side bool, more map[string]any) string {
	id := g.uuid()
	m := map[string]any{"isSidechain": side, "userType": "external", "cwd": "/workspace/bench",
		"sessionId": "5e55a0b0-0000-4000-8000-000000000001", "version": "2.1.39", "gitBranch": "main",
		"type": typ, "uuid": id, "timestamp": g.stamp(), "parentUuid": nil}
	if parent != "" {
		m["parentUuid"] = parent
	}
	for k, v := range more {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	g.out = append(g.out, b)
	return id
}

func (g *gen) assistant(parent, msgID string, block map[string]any, stop string) string {
	return g.assistantSide(parent, msgID, block, stop, false)
}

func (g *gen) assistantSide(parent, msgID string, block map[string]any, stop string, side bool) string {
	var sr any
	if stop != "" {
		sr = stop
	}
	return g.entrySide("assistant", parent, side, map[string]any{"requestId": "req_" + msgID[4:], "message": map[string]any{
		"model": "claude-opus-4-6", "id": msgID, "type": "message", "role": "assistant",
		"content": []any{block}, "stop_reason": sr, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 3, "cache_read_input_tokens": 22681, "output_tokens": 9}}})
}

func (g *gen) snapshot() {
	id := fmt.Sprintf("5a9b0000-0000-4000-8000-%012d", len(g.out))
	b, _ := json.Marshal(map[string]any{"type": "file-history-snapshot", "messageId": id,
		"snapshot":         map[string]any{"messageId": id, "trackedFileBackups": map[string]any{}, "timestamp": g.stamp()},
		"isSnapshotUpdate": false})
	g.out = append(g.out, b)
}

// subagent runs a Task call whose subagent writes a sidechain: its own
// root, a call and its result, and its answer; the Task result closes it on
// the main chain.
func (g *gen) subagent(prev string, turn int, calls *int) string {
	g.msgs++
	msgID := fmt.Sprintf("msg_%020d", g.msgs)
	*calls++
	task := fmt.Sprintf("toolu_%018d", *calls)
	prev = g.assistant(prev, msgID, map[string]any{"type": "tool_use", "id": task, "name": "Task",
		"input": map[string]any{"description": "Find the failing test", "prompt": fmt.Sprintf("Find why p%d fails.", turn%17)}}, "tool_use")
	s := g.entrySide("user", "", true, map[string]any{"message": map[string]any{"role": "user", "content": fmt.Sprintf("Find why p%d fails.", turn%17)}})
	g.msgs++
	sub := fmt.Sprintf("msg_%020d", g.msgs)
	*calls++
	grep := fmt.Sprintf("toolu_%018d", *calls)
	s = g.assistantSide(s, sub, map[string]any{"type": "tool_use", "id": grep, "name": "Grep",
		"input": map[string]any{"pattern": "FAIL", "path": fmt.Sprintf("p%d", turn%17)}}, "tool_use", true)
	s = g.entrySide("user", s, true, map[string]any{"message": map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "tool_result", "tool_use_id": grep, "content": "p_test.go:12: FAIL"}}}})
	g.msgs++
	g.assistantSide(s, fmt.Sprintf("msg_%020d", g.msgs), map[string]any{"type": "text", "text": "The test at p_test.go:12 fails."}, "end_turn", true)
	return g.entry("user", prev, map[string]any{"message": map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "tool_result", "tool_use_id": task, "content": []any{map[string]any{"type": "text", "text": "The test at p_test.go:12 fails."}}}}}})
}
