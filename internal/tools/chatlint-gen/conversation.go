package main

import (
	"bytes"
	"slices"
)

func (g *generator) begin() {
	g.arena = g.arena[:0]
	clear(g.msgs) // drop references into old arenas
	g.msgs = g.msgs[:0]
}

func (g *generator) pickToolSet() *toolSet {
	if g.chance(0.9) {
		return g.sets[0]
	}
	return g.sets[1+g.intn(len(g.sets)-1)]
}

// addTurn appends a user message, rounds rounds of (assistant with tool
// calls, tool results) and a final assistant text message.
func (g *generator) addTurn(ts *toolSet, rounds int) {
	g.msgs = append(g.msgs, message{role: "user", content: g.userText()})
	for range rounds {
		n := 1
		if g.chance(0.25) {
			n = g.between(2, 3)
		}
		m := message{role: "assistant", calls: make([]toolCall, n)}
		if g.chance(0.4) {
			m.content = []byte(pick(g, assistantToolIntros))
		} else {
			m.nullContent = true
		}
		// Parallel calls use distinct tools (a tool set has at least four).
		var defs [3]*toolDef
		for i := range m.calls {
			d := ts.defs[g.intn(len(ts.defs))]
			for slices.Contains(defs[:i], d) {
				d = ts.defs[g.intn(len(ts.defs))]
			}
			defs[i] = d
			m.calls[i] = toolCall{id: g.callID(), name: d.name, args: g.args(d)}
		}
		g.msgs = append(g.msgs, m)
		for i := range m.calls {
			g.msgs = append(g.msgs, message{role: "tool", toolCallID: m.calls[i].id, content: g.toolResult(defs[i])})
		}
	}
	g.msgs = append(g.msgs, message{role: "assistant", content: g.assistantText()})
}

func needsToolTurn(kind string) bool {
	switch kind {
	case "", defLegacyFunctionCall, defToolDefinitionSchema, defSessionIDMismatch, defTimestampBackwards:
		return false
	}
	return true
}

func (g *generator) insertMsg(i int, m message) { g.msgs = slices.Insert(g.msgs, i, m) }

func (g *generator) removeMsg(i int) { g.msgs = slices.Delete(g.msgs, i, i+1) }

// pickMsg returns the index of a random message satisfying ok, or -1.
func (g *generator) pickMsg(ok func(*message) bool) int {
	g.idx = g.idx[:0]
	for i := range g.msgs {
		if ok(&g.msgs[i]) {
			g.idx = append(g.idx, i)
		}
	}
	if len(g.idx) == 0 {
		return -1
	}
	return g.idx[g.intn(len(g.idx))]
}

func hasCalls(m *message) bool { return m.role == "assistant" && len(m.calls) > 0 }
func isTool(m *message) bool   { return m.role == "tool" }
func isPlainAssistant(m *message) bool {
	return m.role == "assistant" && len(m.calls) == 0 && !m.nullContent
}

func (g *generator) resultOf(id []byte) int {
	for i := range g.msgs {
		if g.msgs[i].role == "tool" && bytes.Equal(g.msgs[i].toolCallID, id) {
			return i
		}
	}
	return -1
}

// applyDefect injects a message-level defect into g.msgs (or picks the tool
// definition to break) and says where it is.
func (g *generator) applyDefect(kind string, ts *toolSet) defectInfo {
	info := noDefect(kind)
	switch kind {
	case defToolResultMissing:
		ai := g.pickMsg(hasCalls)
		j := g.intn(len(g.msgs[ai].calls))
		g.removeMsg(g.resultOf(g.msgs[ai].calls[j].id))
		info.messageIndex, info.toolCallIndex = ai, j
	case defToolResultOrphan:
		ai := g.pickMsg(hasCalls)
		p := ai + 1
		for p < len(g.msgs) && g.msgs[p].role == "tool" {
			p++
		}
		g.insertMsg(p, message{role: "tool", toolCallID: g.callID(), content: g.toolResult(pick(g, ts.defs))})
		info.messageIndex = p
	case defToolResultDuplicate:
		ti := g.pickMsg(isTool)
		dup := g.msgs[ti]
		if g.chance(0.5) {
			dup.content = g.toolResult(pick(g, ts.defs))
		}
		g.insertMsg(ti+1, dup)
		info.messageIndex = ti + 1
	case defLegacyFunctionCall:
		ai := g.pickMsg(isPlainAssistant)
		d := pick(g, ts.defs)
		g.msgs[ai].legacy = &toolCall{name: d.name, args: g.args(d)}
		info.messageIndex = ai
	case defToolCallMissingInput:
		ai := g.pickMsg(hasCalls)
		j := g.intn(len(g.msgs[ai].calls))
		g.msgs[ai].calls[j].noArgs = true
		info.messageIndex, info.toolCallIndex = ai, j
	case defToolResultFlagged:
		ti := g.pickMsg(isTool)
		g.msgs[ti].content = []byte(flaggedResult)
		info.messageIndex = ti
	case defToolCallsShape:
		// A tool_calls object holds no calls a reader would pair results
		// with, so its results go too (else they would be orphans).
		ai := g.pickMsg(hasCalls)
		m := &g.msgs[ai]
		for j := len(m.calls) - 1; j >= 0; j-- {
			g.removeMsg(g.resultOf(m.calls[j].id))
		}
		m = &g.msgs[ai]
		keep := g.intn(len(m.calls))
		m.calls = m.calls[keep : keep+1]
		m.callsObject = true
		info.messageIndex = ai
	case defToolDefinitionSchema:
		info.toolIndex = g.intn(len(ts.defs))
	}
	return info
}

// toolsJSON returns the tools array to write for the current record.
func (g *generator) toolsJSON(ts *toolSet, info defectInfo) []byte {
	if info.kind == defToolDefinitionSchema {
		return appendToolSet(nil, ts.defs, info.toolIndex)
	}
	return ts.json
}
