package main

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// Defect kinds. The names are the ids of the integrity checks that report them.
const (
	defToolResultMissing    = "tool-result-missing"
	defToolResultOrphan     = "tool-result-orphan"
	defToolResultDuplicate  = "tool-result-duplicate"
	defLegacyFunctionCall   = "legacy-function-call"
	defToolCallMissingInput = "tool-call-missing-input"
	defToolResultFlagged    = "tool-result-flagged"
	defToolDefinitionSchema = "tool-definition-schema"
	defToolCallsShape       = "tool-calls-shape"
	// proxy-log only
	defSessionIDMismatch  = "session-id-mismatch"
	defTimestampBackwards = "timestamp-not-increasing"
)

// chatDefects are the kinds injected into chat records; proxyDefects the kinds
// injected into proxy-log sessions.
var (
	chatDefects = []string{
		defToolResultMissing, defToolResultOrphan, defToolResultDuplicate, defLegacyFunctionCall,
		defToolCallMissingInput, defToolResultFlagged, defToolDefinitionSchema, defToolCallsShape,
	}
	proxyDefects = append(slices.Clone(chatDefects), defSessionIDMismatch, defTimestampBackwards)
)

// Random streams: every record (chat) or session (proxy-log) gets its own PCG
// seeded from (seed, stream, index), so a record's content depends only on the
// seed and its position, never on what was generated before it.
const (
	streamChat     = 1
	streamProxy    = 2
	streamSchedule = 3
)

// flaggedResult is the content of a tool-result-flagged defect.
const flaggedResult = `{"status":"error","error":"timeout after 30s","elapsed_ms":30004}`

// sessionEpoch is the start time of proxy-log session 0 (2026-01-02T00:00:00Z).
var sessionEpoch = time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC).UnixMilli()

type argKind uint8

const (
	argText argKind = iota
	argQuery
	argPath
	argCode
	argCommand
	argSQL
	argURL
	argInt
	argBool
	argEnum
	argStrList
	argNameList
	argTime
	argID
	argCity
)

type param struct {
	name, typ, desc string
	kind            argKind
	enum            []string
	required        bool
}

type toolDef struct {
	name, desc string
	params     []param
}

// toolSet is one tools array; json is its serialization, shared byte for byte
// by every record that uses the set.
type toolSet struct {
	defs []*toolDef
	json []byte
}

type toolCall struct {
	id     []byte
	name   string
	args   []byte // JSON object text (serialized as a JSON string)
	noArgs bool   // tool-call-missing-input: omit "arguments"
}

type message struct {
	role        string
	content     []byte
	nullContent bool
	calls       []toolCall
	callsObject bool // tool-calls-shape: serialize calls[0] as an object
	toolCallID  []byte
	legacy      *toolCall // legacy-function-call
}

// defectInfo says where an injected defect is: indices are -1 when they do
// not apply.
type defectInfo struct {
	kind          string
	messageIndex  int
	toolCallIndex int
	toolIndex     int
	entry         int // proxy-log: 0-based entry (line) within the session
}

func noDefect(kind string) defectInfo {
	return defectInfo{kind: kind, messageIndex: -1, toolCallIndex: -1, toolIndex: -1, entry: -1}
}

// generator builds records. It is not safe for concurrent use; use one per
// goroutine.
type generator struct {
	seed uint64
	pcg  rand.PCG
	r    *rand.Rand

	// ascii makes the current record escape every non-ASCII character as
	// \uXXXX (like Python's json.dumps default), so both styles occur.
	ascii bool

	sets []*toolSet

	arena  []byte // raw text of the current record; messages point into it
	msgs   []message
	idx    []int
	msgBuf []byte // serialized messages, comma separated (proxy-log)
	msgEnd []int
	out    []byte
}

func newGenerator(seed uint64) *generator {
	g := &generator{seed: seed}
	g.r = rand.New(&g.pcg)
	g.sets = buildToolSets()
	return g
}

// mix is the splitmix64 finalizer.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func (g *generator) reseed(stream, i uint64) {
	g.pcg.Seed(mix(g.seed^stream<<56), mix(i^stream<<60))
}

// --- random helpers ---

func (g *generator) intn(n int) int { return g.r.IntN(n) }

// between returns a uniform int in [lo, hi].
func (g *generator) between(lo, hi int) int { return lo + g.r.IntN(hi-lo+1) }

func (g *generator) chance(p float64) bool { return g.r.Float64() < p }

// logUniform returns an int in [lo, hi] whose logarithm is uniform.
func (g *generator) logUniform(lo, hi int) int {
	l, h := math.Log(float64(lo)), math.Log(float64(hi))
	return int(math.Exp(l + g.r.Float64()*(h-l)))
}

func pick[T any](g *generator, s []T) T { return s[g.r.IntN(len(s))] }

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// appendAlnum appends n random alphanumeric characters.
func (g *generator) appendAlnum(b []byte, n int) []byte {
	for n > 0 {
		x := g.r.Uint64()
		for k := 0; k < 10 && n > 0; k++ {
			b = append(b, alnum[x%62])
			x /= 62
			n--
		}
	}
	return b
}

func (g *generator) appendDigits(b []byte, n int) []byte {
	for range n {
		b = append(b, byte('0'+g.r.IntN(10)))
	}
	return b
}

// --- text ---

func (g *generator) appendWord(b []byte) []byte {
	// One draw per word: the low bits pick the variant, the high bits the
	// word (the modulo bias is irrelevant here).
	u := g.r.Uint64()
	x, w := u%1000, words[(u>>32)%uint64(len(words))]
	switch {
	case x < 3:
		return append(b, rareWords[(u>>32)%uint64(len(rareWords))]...)
	case x < 12:
		b = append(b, '`')
		b = append(b, w...)
		return append(b, "()`"...)
	case x < 18:
		b = append(b, '"')
		b = append(b, w...)
		return append(b, '"')
	case x < 22:
		return strconv.AppendUint(b, (u>>32)%5000, 10)
	}
	return append(b, w...)
}

// appendSentence appends one sentence of minW..maxW words.
func (g *generator) appendSentence(b []byte, minW, maxW int, question bool) []byte {
	n := g.between(minW, maxW)
	start := len(b)
	for i := range n {
		if i > 0 {
			if i > 2 && i < n-2 && g.r.IntN(10) == 0 {
				b = append(b, ',')
			}
			b = append(b, ' ')
		}
		b = g.appendWord(b)
	}
	if c := b[start]; c >= 'a' && c <= 'z' {
		b[start] = c - ('a' - 'A')
	}
	switch {
	case question:
		return append(b, '?')
	case g.r.IntN(25) == 0:
		return append(b, '!')
	}
	return append(b, '.')
}

func (g *generator) appendSentences(b []byte, minS, maxS int) []byte {
	n := g.between(minS, maxS)
	for i := range n {
		if i > 0 {
			b = append(b, ' ')
		}
		b = g.appendSentence(b, 3, 13, false)
	}
	return b
}

func (g *generator) appendPath(b []byte) []byte {
	b = append(b, pick(g, fileDirs)...)
	b = append(b, '/')
	b = append(b, pick(g, sqlTables)...)
	b = append(b, '_')
	b = append(b, pick(g, sqlColumns)...)
	return append(b, pick(g, fileExts)...)
}

func (g *generator) appendCodeBlock(b []byte) []byte {
	b = append(b, "\n\n```\n"...)
	b = append(b, pick(g, codeSnippets)...)
	return append(b, "\n```\n"...)
}

// text finishes a piece of arena text started at start and returns it.
func (g *generator) text(start int) []byte { return g.arena[start:len(g.arena):len(g.arena)] }

func (g *generator) systemText() []byte {
	s := len(g.arena)
	if g.chance(0.75) {
		g.arena = append(g.arena, pick(g, systemPrompts)...)
	} else {
		g.arena = append(g.arena, "You are an assistant that helps with "...)
		g.arena = append(g.arena, pick(g, words)...)
		g.arena = append(g.arena, " and "...)
		g.arena = append(g.arena, pick(g, words)...)
		g.arena = append(g.arena, ". "...)
		g.arena = g.appendSentences(g.arena, 1, 3)
	}
	return g.text(s)
}

func (g *generator) userText() []byte {
	s := len(g.arena)
	n := g.between(1, 2)
	if g.chance(0.2) {
		n = 3
	}
	for i := range n {
		if i > 0 {
			g.arena = append(g.arena, ' ')
		}
		g.arena = g.appendSentence(g.arena, 3, 13, i == n-1 && g.chance(0.6))
	}
	switch x := g.intn(100); {
	case x < 4:
		g.arena = g.appendCodeBlock(g.arena)
	case x < 8:
		g.arena = append(g.arena, " The file is "...)
		g.arena = g.appendPath(g.arena)
		g.arena = append(g.arena, '.')
	}
	return g.text(s)
}

func (g *generator) assistantText() []byte {
	s := len(g.arena)
	g.arena = g.appendSentences(g.arena, 1, 3)
	switch x := g.intn(100); {
	case x < 12:
		g.arena = append(g.arena, "\n\n"...)
		for i := range g.between(2, 5) {
			if i > 0 {
				g.arena = append(g.arena, '\n')
			}
			g.arena = append(g.arena, "- "...)
			g.arena = g.appendSentence(g.arena, 3, 9, false)
		}
	case x < 20:
		g.arena = g.appendCodeBlock(g.arena)
		g.arena = g.appendSentence(g.arena, 4, 12, false)
	case x < 24:
		g.arena = append(g.arena, "\n\n"...)
		for i := range g.between(2, 4) {
			if i > 0 {
				g.arena = append(g.arena, '\n')
			}
			g.arena = strconv.AppendInt(g.arena, int64(i+1), 10)
			g.arena = append(g.arena, ". "...)
			g.arena = g.appendSentence(g.arena, 3, 9, false)
		}
	}
	return g.text(s)
}

func (g *generator) callID() []byte {
	s := len(g.arena)
	g.arena = append(g.arena, "call_"...)
	g.arena = g.appendAlnum(g.arena, 24)
	return g.text(s)
}

// --- tool arguments and results ---

// appendArgValue appends one JSON value for parameter p.
func (g *generator) appendArgValue(b []byte, p *param) []byte {
	var tmp [256]byte
	t := tmp[:0]
	switch p.kind {
	case argInt:
		return strconv.AppendInt(b, int64(g.between(1, 100)), 10)
	case argBool:
		return strconv.AppendBool(b, g.chance(0.5))
	case argEnum:
		return g.appendString(b, []byte(pick(g, p.enum)))
	case argStrList, argNameList:
		b = append(b, '[')
		for i := range g.between(1, 3) {
			if i > 0 {
				b = append(b, ',')
			}
			t = t[:0]
			if p.kind == argNameList {
				t = append(t, pick(g, firstNames)...)
				t = append(t, ' ')
				t = append(t, pick(g, lastNames)...)
			} else {
				t = append(t, pick(g, words)...)
			}
			b = g.appendString(b, t)
		}
		return append(b, ']')
	case argText:
		t = g.appendSentence(t, 3, 12, false)
	case argQuery:
		for i := range g.between(2, 6) {
			if i > 0 {
				t = append(t, ' ')
			}
			t = g.appendWord(t)
		}
	case argPath:
		t = g.appendPath(t)
	case argCode:
		return g.appendString(b, []byte(pick(g, codeSnippets)))
	case argCommand:
		cmd := pick(g, shellCommands)
		if i := strings.Index(cmd, "%s"); i >= 0 {
			t = append(t, cmd[:i]...)
			if g.chance(0.5) {
				t = g.appendPath(t)
			} else {
				t = append(t, pick(g, words)...)
			}
			t = append(t, cmd[i+2:]...)
		} else {
			t = append(t, cmd...)
		}
	case argSQL:
		t = append(t, "SELECT "...)
		t = append(t, pick(g, sqlColumns)...)
		t = append(t, ", "...)
		t = append(t, pick(g, sqlColumns)...)
		t = append(t, " FROM "...)
		t = append(t, pick(g, sqlTables)...)
		t = append(t, " WHERE status = '"...)
		t = append(t, pick(g, words)...)
		t = append(t, "' LIMIT "...)
		t = strconv.AppendInt(t, int64(g.between(5, 200)), 10)
	case argURL:
		t = append(t, "https://internal.example.com/api/v1/"...)
		t = append(t, pick(g, sqlTables)...)
		t = append(t, '/')
		t = g.appendDigits(t, 6)
	case argTime:
		ms := sessionEpoch + int64(g.intn(90*24))*3600_000 + int64(g.intn(4))*900_000
		t = time.UnixMilli(ms).UTC().AppendFormat(t, time.RFC3339)
	case argID:
		if g.chance(0.5) {
			t = append(t, "ORD-"...)
			t = g.appendDigits(t, 6)
		} else {
			t = append(t, "usr_"...)
			t = g.appendAlnum(t, 10)
		}
	case argCity:
		t = append(t, pick(g, cities)...)
	}
	return g.appendString(b, t)
}

// args returns the arguments object for a call of d, as JSON text.
func (g *generator) args(d *toolDef) []byte {
	s := len(g.arena)
	g.arena = append(g.arena, '{')
	first := true
	for i := range d.params {
		p := &d.params[i]
		if !p.required && g.chance(0.5) {
			continue
		}
		if !first {
			g.arena = append(g.arena, ',')
		}
		first = false
		g.arena = append(g.arena, '"')
		g.arena = append(g.arena, p.name...)
		g.arena = append(g.arena, `":`...)
		g.arena = g.appendArgValue(g.arena, p)
	}
	g.arena = append(g.arena, '}')
	return g.text(s)
}

// toolResult returns the content of a result of a call to d: plain text or a
// JSON object, 20 bytes to about 4 KB.
func (g *generator) toolResult(d *toolDef) []byte {
	s := len(g.arena)
	target := g.logUniform(20, 600)
	if g.chance(0.15) {
		target = g.logUniform(400, 4000)
	}
	switch {
	case d.name == "run_shell":
		g.shellOutput(s, target)
	case d.name == "read_file":
		g.fileListing(s, target)
	case g.chance(0.6):
		g.jsonResult(s, target)
	default:
		for len(g.arena)-s < target {
			if len(g.arena) > s {
				g.arena = append(g.arena, ' ')
			}
			g.arena = g.appendSentence(g.arena, 4, 16, false)
		}
	}
	return g.text(s)
}

func (g *generator) shellOutput(s, target int) {
	color := g.chance(0.05)
	for len(g.arena)-s < target {
		switch g.intn(3) {
		case 0:
			g.arena = g.appendPath(g.arena)
			g.arena = append(g.arena, ':')
			g.arena = strconv.AppendInt(g.arena, int64(g.between(1, 900)), 10)
			g.arena = append(g.arena, ": "...)
			g.arena = g.appendSentence(g.arena, 3, 8, false)
		case 1:
			if color {
				g.arena = append(g.arena, "\x1b[32mok\x1b[0m\t"...)
			} else {
				g.arena = append(g.arena, "ok\t"...)
			}
			g.arena = append(g.arena, "github.com/acme/"...)
			g.arena = append(g.arena, pick(g, sqlTables)...)
			g.arena = append(g.arena, '\t')
			g.arena = strconv.AppendFloat(g.arena, float64(g.between(1, 9999))/1000, 'f', 3, 64)
			g.arena = append(g.arena, 's')
		default:
			g.arena = append(g.arena, "-rw-r--r--  1 dev  staff  "...)
			g.arena = strconv.AppendInt(g.arena, int64(g.between(10, 99999)), 10)
			g.arena = append(g.arena, ' ')
			g.arena = g.appendPath(g.arena)
		}
		g.arena = append(g.arena, '\n')
	}
}

// fileListing appends numbered source lines, like `cat -n`.
func (g *generator) fileListing(s, target int) {
	line := g.between(1, 400)
	for len(g.arena)-s < target {
		snippet := pick(g, codeSnippets)
		for snippet != "" {
			l, rest, _ := strings.Cut(snippet, "\n")
			snippet = rest
			for w := 100000; w > line; w /= 10 {
				g.arena = append(g.arena, ' ')
			}
			g.arena = strconv.AppendInt(g.arena, int64(line), 10)
			g.arena = append(g.arena, '\t')
			g.arena = append(g.arena, l...)
			g.arena = append(g.arena, '\n')
			line++
		}
	}
}

func (g *generator) jsonResult(s, target int) {
	if target < 40 {
		g.arena = append(g.arena, `{"status":"ok","count":`...)
		g.arena = strconv.AppendInt(g.arena, int64(g.intn(50)), 10)
		g.arena = append(g.arena, '}')
		return
	}
	g.arena = append(g.arena, `{"status":"ok","items":[`...)
	var tmp [512]byte
	for i := 0; len(g.arena)-s < target-30; i++ {
		if i > 0 {
			g.arena = append(g.arena, ',')
		}
		g.arena = append(g.arena, `{"id":"`...)
		g.arena = g.appendAlnum(g.arena, 12)
		g.arena = append(g.arena, `","title":`...)
		g.arena = g.appendString(g.arena, g.appendSentence(tmp[:0], 2, 6, false))
		g.arena = append(g.arena, `,"score":`...)
		g.arena = strconv.AppendFloat(g.arena, float64(g.intn(1000))/1000, 'f', -1, 64)
		if g.chance(0.6) {
			g.arena = append(g.arena, `,"snippet":`...)
			g.arena = g.appendString(g.arena, g.appendSentence(tmp[:0], 6, 20, false))
		}
		g.arena = append(g.arena, '}')
	}
	g.arena = append(g.arena, `],"next_page":`...)
	if g.chance(0.7) {
		g.arena = append(g.arena, "null"...)
	} else {
		g.arena = strconv.AppendInt(g.arena, int64(g.between(2, 9)), 10)
	}
	g.arena = append(g.arena, '}')
}

// --- conversations ---

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

// --- serialization ---

var jsonSafe = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. s must be valid UTF-8. With
// g.ascii set, non-ASCII characters are written as \u escapes (surrogate
// pairs outside the BMP).
func (g *generator) appendString(b, s []byte) []byte { return appendJSONString(b, s, g.ascii) }

func appendJSONString(b, s []byte, ascii bool) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if jsonSafe[c] {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			if !ascii {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			r, size := utf8.DecodeRune(s[i:])
			if r >= 0x10000 {
				r1, r2 := utf16.EncodeRune(r)
				b = appendU(b, r1)
				b = appendU(b, r2)
			} else {
				b = appendU(b, r)
			}
			i += size
			start = i
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = appendU(b, rune(c))
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func appendU(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&15], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
}

func appendStr(b []byte, s string) []byte { return appendJSONString(b, []byte(s), false) }

func (g *generator) appendCall(b []byte, c *toolCall, withID bool) []byte {
	if withID {
		b = append(b, `{"id":"`...)
		b = append(b, c.id...)
		b = append(b, `","type":"function","function":{"name":"`...)
	} else {
		b = append(b, `{"name":"`...)
	}
	b = append(b, c.name...)
	b = append(b, '"')
	if !c.noArgs {
		b = append(b, `,"arguments":`...)
		b = g.appendString(b, c.args)
	}
	if withID {
		b = append(b, '}')
	}
	return append(b, '}')
}

func (g *generator) appendMessage(b []byte, m *message) []byte {
	b = append(b, `{"role":"`...)
	b = append(b, m.role...)
	b = append(b, '"')
	if m.toolCallID != nil {
		b = append(b, `,"tool_call_id":"`...)
		b = append(b, m.toolCallID...)
		b = append(b, '"')
	}
	b = append(b, `,"content":`...)
	if m.nullContent {
		b = append(b, "null"...)
	} else {
		b = g.appendString(b, m.content)
	}
	if len(m.calls) > 0 {
		b = append(b, `,"tool_calls":`...)
		if m.callsObject {
			b = g.appendCall(b, &m.calls[0], true)
		} else {
			b = append(b, '[')
			for i := range m.calls {
				if i > 0 {
					b = append(b, ',')
				}
				b = g.appendCall(b, &m.calls[i], true)
			}
			b = append(b, ']')
		}
	}
	if m.legacy != nil {
		b = append(b, `,"function_call":`...)
		b = g.appendCall(b, m.legacy, false)
	}
	return append(b, '}')
}

// appendToolSet appends a tools array; the definition at index bad (if any)
// gets parameters.type "dict".
func appendToolSet(b []byte, defs []*toolDef, bad int) []byte {
	b = append(b, '[')
	for i, d := range defs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":"function","function":{"name":`...)
		b = appendStr(b, d.name)
		b = append(b, `,"description":`...)
		b = appendStr(b, d.desc)
		if i == bad {
			b = append(b, `,"parameters":{"type":"dict","properties":{`...)
		} else {
			b = append(b, `,"parameters":{"type":"object","properties":{`...)
		}
		for j := range d.params {
			p := &d.params[j]
			if j > 0 {
				b = append(b, ',')
			}
			b = appendStr(b, p.name)
			b = append(b, `:{"type":`...)
			b = appendStr(b, p.typ)
			if p.typ == "array" {
				b = append(b, `,"items":{"type":"string"}`...)
			}
			if len(p.enum) > 0 {
				b = append(b, `,"enum":[`...)
				for k, e := range p.enum {
					if k > 0 {
						b = append(b, ',')
					}
					b = appendStr(b, e)
				}
				b = append(b, ']')
			}
			b = append(b, `,"description":`...)
			b = appendStr(b, p.desc)
			b = append(b, '}')
		}
		b = append(b, `},"required":[`...)
		n := 0
		for j := range d.params {
			if d.params[j].required {
				if n > 0 {
					b = append(b, ',')
				}
				b = appendStr(b, d.params[j].name)
				n++
			}
		}
		b = append(b, `]}}}`...)
	}
	return append(b, ']')
}

func buildToolSets() []*toolSet {
	sets := make([]*toolSet, len(toolSetNames))
	for i, names := range toolSetNames {
		ts := &toolSet{}
		for _, n := range names {
			for j := range toolCatalog {
				if toolCatalog[j].name == n {
					ts.defs = append(ts.defs, &toolCatalog[j])
				}
			}
		}
		if len(ts.defs) != len(names) {
			panic("tool set " + strconv.Itoa(i) + " names an unknown tool")
		}
		ts.json = appendToolSet(nil, ts.defs, -1)
		sets[i] = ts
	}
	return sets
}

// --- chat ---

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
	return b, info
}

// --- proxy-log ---

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

// --- defect schedule ---

// schedule decides which records are defective: exactly one defect falls at
// a random position in each stratum [k/p, (k+1)/p) of record indices, so the
// count over n records is n*p give or take one. Kinds cycle through random
// permutations of the kind list, so every kind occurs equally often.
type schedule struct {
	p     float64
	kinds []string
	pcg   rand.PCG
	r     *rand.Rand
	perm  []string
	k     uint64 // defects handed out so far
	next  uint64 // index of the next defective record
}

func newSchedule(seed uint64, p float64, kinds []string) *schedule {
	s := &schedule{p: p, kinds: kinds}
	s.pcg.Seed(mix(seed^streamSchedule<<56), mix(streamSchedule))
	s.r = rand.New(&s.pcg)
	s.next = s.position(0)
	return s
}

func (s *schedule) position(min uint64) uint64 {
	if s.p <= 0 {
		return math.MaxUint64
	}
	pos := uint64((float64(s.k) + s.r.Float64()) / s.p)
	return max(pos, min)
}

// at returns the defect of record i, or "". It must be called for
// i = 0, 1, 2, … in order.
func (s *schedule) at(i uint64) string {
	if i != s.next {
		return ""
	}
	c := s.k % uint64(len(s.kinds))
	if c == 0 {
		s.perm = slices.Clone(s.kinds)
		s.r.Shuffle(len(s.perm), func(a, b int) { s.perm[a], s.perm[b] = s.perm[b], s.perm[a] })
	}
	kind := s.perm[c]
	s.k++
	s.next = s.position(i + 1)
	return kind
}
