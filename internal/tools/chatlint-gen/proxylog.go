package main

import (
	"strconv"
	"time"
)

// proxySession generates session i (0-based) of a proxy log: one line per
// request/response pair. The returned bytes are valid until the next call.
func (g *generator) proxySession(i uint64, kind string) (data []byte, lines int, sessionID string, info defectInfo) {
	g.reseed(streamProxy, i)
	g.begin()
	g.ascii = g.chance(0.15)
	ts := g.pickToolSet()
	model := pick(g, models)
	temperature := pick(g, []float64{0, 0.2, 0.7, 1})
	sid := g.appendAlnum([]byte("sess_"), 24)

	// The conversation has exactly `entries` assistant messages: each one is
	// the response of one log line.
	entries := g.between(3, 12)
	g.msgs = append(g.msgs, message{role: "system", content: g.systemText()})
	need := needsToolTurn(kind)
	for left := entries; left > 0; {
		rounds := 0
		if left >= 2 && (g.chance(0.45) || need && left <= 3) {
			rounds = 1
			if left >= 3 && g.chance(0.2) {
				rounds = 2
			}
			need = false
		}
		g.addTurn(ts, rounds)
		left -= rounds + 1
	}
	info = g.applyDefect(kind, ts)
	tools := g.toolsJSON(ts, info)

	// Serialize every message once; request k's history is a prefix.
	g.msgBuf = g.msgBuf[:0]
	g.msgEnd = g.msgEnd[:0]
	for k := range g.msgs {
		if k > 0 {
			g.msgBuf = append(g.msgBuf, ',')
		}
		g.msgBuf = g.appendMessage(g.msgBuf, &g.msgs[k])
		g.msgEnd = append(g.msgEnd, len(g.msgBuf))
	}

	badEntry := -1
	if kind == defSessionIDMismatch || kind == defTimestampBackwards {
		badEntry = g.between(1, entries-1)
		info.entry = badEntry
	}
	otherSID := g.appendAlnum([]byte("sess_"), 24)

	clock := sessionEpoch + int64(i)*600_000 + int64(g.intn(600_000))
	prev := int64(0)
	b := g.out[:0]
	e := 0
	for k := range g.msgs {
		m := &g.msgs[k]
		if m.role != "assistant" {
			continue
		}
		at := clock
		if e == badEntry && kind == defTimestampBackwards {
			at = prev - int64(g.between(1_000, 120_000))
		}
		latency := g.between(300, 9000)
		reqStart := len(b)
		b = append(b, `{"timestamp":"`...)
		b = time.UnixMilli(at).UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z")
		b = append(b, `","session_id":"`...)
		if e == badEntry && kind == defSessionIDMismatch {
			b = append(b, otherSID...)
		} else {
			b = append(b, sid...)
		}
		b = append(b, `","request":{"model":"`...)
		b = append(b, model...)
		b = append(b, `","temperature":`...)
		b = strconv.AppendFloat(b, temperature, 'f', -1, 64)
		b = append(b, `,"messages":[`...)
		b = append(b, g.msgBuf[:g.msgEnd[k-1]]...)
		b = append(b, `],"tools":`...)
		b = append(b, tools...)
		promptTokens := (len(b) - reqStart) / 4
		b = append(b, `},"response":{"id":"chatcmpl-`...)
		b = g.appendAlnum(b, 29)
		b = append(b, `","object":"chat.completion","created":`...)
		b = strconv.AppendInt(b, (at+int64(latency))/1000, 10)
		b = append(b, `,"model":"`...)
		b = append(b, model...)
		b = append(b, `","choices":[{"index":0,"message":`...)
		respStart := g.msgEnd[k-1] + 1
		b = append(b, g.msgBuf[respStart:g.msgEnd[k]]...)
		b = append(b, `,"finish_reason":"`...)
		switch {
		case len(m.calls) > 0:
			b = append(b, "tool_calls"...)
		case m.legacy != nil:
			b = append(b, "function_call"...)
		default:
			b = append(b, "stop"...)
		}
		completionTokens := (g.msgEnd[k]-respStart)/4 + 1
		b = append(b, `"}],"usage":{"prompt_tokens":`...)
		b = strconv.AppendInt(b, int64(promptTokens), 10)
		b = append(b, `,"completion_tokens":`...)
		b = strconv.AppendInt(b, int64(completionTokens), 10)
		b = append(b, `,"total_tokens":`...)
		b = strconv.AppendInt(b, int64(promptTokens+completionTokens), 10)
		b = append(b, `}},"latency_ms":`...)
		b = strconv.AppendInt(b, int64(latency), 10)
		b = append(b, "}\n"...)

		prev = at
		clock += int64(latency) + int64(g.logUniform(200, 120_000))
		e++
	}
	g.out = b
	return b, e, string(sid), info
}
