package main

// chatRecord generates record i (0-based) of a chat file, with the given
// defect ("" for none). The returned line (with its trailing newline) is
// valid until the next call.
func (g *generator) chatRecord(i uint64, kind string) ([]byte, defectInfo) {
	g.reseed(streamChat, i)
	g.begin()
	g.ascii = g.chance(0.15)
	ts := g.pickToolSet()
	g.msgs = append(g.msgs, message{role: "system", content: g.systemText()})

	turns := 3 + min(g.intn(18), g.intn(18), g.intn(18), g.intn(18)) // 3..20, skewed towards short
	var rounds [20]int
	tool := false
	for t := range turns {
		if g.chance(0.18) {
			rounds[t] = 1
			if g.chance(0.15) {
				rounds[t] = 2
			}
			tool = true
		}
	}
	if needsToolTurn(kind) && !tool {
		rounds[g.intn(turns)] = 1
	}
	for t := range turns {
		g.addTurn(ts, rounds[t])
	}
	info := g.applyDefect(kind, ts)
	return g.encodeChat(ts, info), info
}

// encodeChat serializes the current record's messages and tools as one
// line. The line is valid until the next call.
func (g *generator) encodeChat(ts *toolSet, info defectInfo) []byte {
	b := append(g.out[:0], `{"messages":[`...)
	for k := range g.msgs {
		if k > 0 {
			b = append(b, ',')
		}
		b = g.appendMessage(b, &g.msgs[k])
	}
	b = append(b, `],"tools":`...)
	b = append(b, g.toolsJSON(ts, info)...)
	b = append(b, "}\n"...)
	g.out = b
	return b
}
