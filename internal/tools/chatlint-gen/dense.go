package main

// The dense shape (-shape dense) is message-dense chat: 4-50 short messages
// per record, tool arguments and results mostly under 100 bytes, so the
// cost a reader pays per message shows, where the default shape's results
// of up to 4 KB hide it behind bytes.

const (
	denseMinMsgs  = 4
	denseMaxMsgs  = 50
	denseMaxBytes = 100 // tool arguments and results are kept under this when a few draws allow
)

// denseRecord generates record i of a dense chat file, with the given
// defect ("" for none), as chatRecord does for the default shape.
func (g *generator) denseRecord(i uint64, kind string) ([]byte, defectInfo) {
	g.reseed(streamChat, i)
	g.begin()
	g.ascii = g.chance(0.15)
	ts := g.pickToolSet()
	g.msgs = append(g.msgs, message{role: "system", content: g.systemText()})
	// Each turn adds 2 messages, or 4 with a tool call: stopping at want
	// or one past keeps the record within the range.
	want := g.between(denseMinMsgs, denseMaxMsgs-1)
	tool := needsToolTurn(kind)
	for len(g.msgs) < want || tool {
		g.msgs = append(g.msgs, message{role: "user", content: g.shortText(3, 10)})
		if tool || len(g.msgs)+3 <= want && g.chance(0.35) {
			d := ts.defs[g.intn(len(ts.defs))]
			args := g.args(d)
			for try := 0; len(args) >= denseMaxBytes && try < 4; try++ {
				args = g.args(d)
			}
			call := toolCall{id: g.callID(), name: d.name, args: args}
			g.msgs = append(g.msgs,
				message{role: "assistant", nullContent: true, calls: []toolCall{call}},
				message{role: "tool", toolCallID: call.id, content: g.shortText(2, 9)})
			tool = false
		}
		g.msgs = append(g.msgs, message{role: "assistant", content: g.shortText(3, 12)})
	}
	info := g.applyDefect(kind, ts)
	return g.encodeChat(ts, info), info
}

// shortText is one sentence of minW to maxW words.
func (g *generator) shortText(minW, maxW int) []byte {
	s := len(g.arena)
	g.arena = g.appendSentence(g.arena, minW, maxW, false)
	return g.text(s)
}
