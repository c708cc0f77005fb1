package main

import (
	"math/rand/v2"
	"slices"
	"time"
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
