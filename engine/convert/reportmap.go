package convert

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/chatlint/chatlint/engine/jsonv"
)

// This file turns findings of the integrity pack into the lines of the
// reference converter's integrity report, in its order and wording, so that
// switching converters changes no report. The pack's own messages (what
// `check` prints) are not touched: each rule id, with the finding's
// positions and the record they point into, maps to the reference's line
// here. A finding the reference has no line for (a defect it misses) becomes
// a WARNING line in the pack's words.
//
// The pack runs under its strict `export` profile here, which also reports
// `parameters.required: null` as the reference does (the default profile
// accepts it).

// Finding is one line of the integrity report.
type Finding struct {
	Error   bool   // ERROR, else WARNING
	Rule    string // the pack's rule id, or convert's own
	Message string
	Line    int // line in the session file, 0 when none
}

// Severity is the word the report prints.
func (f Finding) Severity() string {
	if f.Error {
		return "ERROR"
	}
	return "WARNING"
}

// sessionRules are the integrity pack's rules about a session's entries;
// convert runs them on the kept entries, the other rules on the record.
var sessionRules = map[string]bool{"role-sequence-mismatch": true, "trailing-short-entry": true, "proxy-http-error": true}

// rawRules run on the record before --json-tool-calls rewrites it (the
// reference's tool-result heuristics read the structured calls); the other
// record rules on the record as written.
var rawRules = map[string]bool{
	"legacy-function-call": true, "tool-result-flagged": true, "tool-result-missing": true,
	"tool-result-orphan": true, "tool-result-duplicate": true, "tool-call-id-reused": true,
	"tool-call-missing-input": true,
}

// Phases of the reference's report, in its order.
const (
	phaseRecord   = iota // messages, tools
	phaseTools           // each tool definition
	phaseCalls           // tool-call representation, per message
	phaseResults         // legacy calls and tool results, per assistant block
	phaseSequence        // role sequences, per entry
	phaseExtra           // defects the reference does not report
)

type keyed struct {
	key [4]int
	f   Finding
}

// mapping is what a rule's line is made from.
type mapping struct {
	written, raw *Record
	entries      []*Entry
	traces       [][]string // each entry's role trace, as the proxy-log adapter tokenized it
	trunc        *Truncation
	line         int // source line of the record (the last kept entry)
}

// lineMaps maps each rule the reference reports to its line; false means
// the reference has no line for this finding.
var lineMaps = map[string]func(mp *mapping, h hit) (keyed, bool){
	"messages-shape": func(mp *mapping, h hit) (keyed, bool) {
		return mp.at(phaseRecord, 0, 0, 0, h, "messages must be a non-empty list"), true
	},
	"tools-shape": func(mp *mapping, h hit) (keyed, bool) {
		return mp.at(phaseRecord, 1, 0, 0, h, "tools list is empty"), true
	},
	"tool-definition-schema": func(mp *mapping, h hit) (keyed, bool) {
		member := strings.TrimPrefix(h.Path, fmt.Sprintf("/tools/%d", h.ToolIndex))
		i := slices.Index([]string{"", "/parameters", "/parameters/type", "/parameters/properties", "/parameters/required"}, member)
		if i < 0 {
			return keyed{}, false
		}
		msg := []string{
			"tool definition is not an object",
			"tool definition lacks parameters dict",
			"tool definition parameters.type must be object",
			"tool definition parameters missing properties dict",
			"tool definition parameters.required must be a list",
		}[i]
		return mp.at(phaseTools, h.ToolIndex, i, 0, h, msg), true
	},
	"tool-calls-shape": func(mp *mapping, h hit) (keyed, bool) {
		call := -1
		if i := strings.LastIndex(h.Path, "/tool_calls/"); i >= 0 {
			fmt.Sscan(h.Path[i+len("/tool_calls/"):], &call)
		}
		var msg string
		switch {
		case strings.HasSuffix(h.Message, "not a list"):
			msg = "assistant tool_calls must be a list when present"
		case strings.HasSuffix(h.Message, "not an object"):
			msg = "tool_calls entry must be an object"
		case strings.HasSuffix(h.Message, "has no function object"):
			msg = "tool_calls entry missing function object"
		default:
			msg = "tool_calls function.name must be a non-empty string"
		}
		return mp.at(phaseCalls, h.MessageIndex, 0, call, h, msg), true
	},
	"inline-tool-call-tags": func(mp *mapping, h hit) (keyed, bool) {
		return mp.at(phaseCalls, h.MessageIndex, 1, 0, h, "tool_call tags mismatch in assistant content"), true
	},
	"inline-tool-calls-field": func(mp *mapping, h hit) (keyed, bool) {
		return mp.at(phaseCalls, h.MessageIndex, 2, 0, h, "tool_calls key should be dropped when json-tool-calls enabled"), true
	},
	// The reference judges a tool message's content as written: not a
	// string starting with <tool_result (a tool message convert leaves
	// unwrapped, having no tool_call_id to wrap it with), or a wrapper left
	// open.
	"inline-tool-result-wrapper": func(mp *mapping, h hit) (keyed, bool) {
		msg := "tool result missing <tool_result> wrapper"
		if s, ok := get(message(mp.written, h.MessageIndex), "content").(string); ok && strings.HasPrefix(s, "<tool_result") {
			msg = "tool result missing closing </tool_result> tag"
		}
		return mp.at(phaseCalls, h.MessageIndex, 3, 0, h, msg), true
	},
	"legacy-function-call": func(mp *mapping, h hit) (keyed, bool) {
		return mp.at(phaseResults, h.MessageIndex, 0, 0, h, "Legacy function_call format is not supported"), true
	},
	"tool-result-flagged": func(mp *mapping, h hit) (keyed, bool) {
		r := h.MessageIndex
		m := message(mp.raw, r)
		id, _ := get(m, "tool_call_id").(string)
		t := turn(mp.raw, r)
		ci, name := findCall(message(mp.raw, t), id)
		if ci < 0 {
			return keyed{}, false
		}
		details, ok := flagDetails(h.Message, get(m, "content"))
		if !ok {
			return keyed{}, false
		}
		return mp.at(phaseResults, t, 1, ci, h, fmt.Sprintf("Tool result flagged (%s, tool_call_id=%s): %s", name, id, details)), true
	},
	"tool-result-missing": func(mp *mapping, h hit) (keyed, bool) {
		calls, _ := get(message(mp.raw, h.MessageIndex), "tool_calls").([]jsonv.Value)
		if h.ToolCallIndex < 0 || h.ToolCallIndex >= len(calls) {
			return keyed{}, false
		}
		c := calls[h.ToolCallIndex].(*jsonv.Object)
		id, _ := get(c, "id").(string)
		name, _ := get(get(c, "function").(*jsonv.Object), "name").(string)
		return mp.at(phaseResults, h.MessageIndex, 2, h.ToolCallIndex, h, fmt.Sprintf("Missing tool result (%s, tool_call_id=%s)", name, id)), true
	},
	"tool-result-orphan": func(mp *mapping, h hit) (keyed, bool) {
		r := h.MessageIndex
		t := turn(mp.raw, r)
		if t < 0 || !hasValidCall(message(mp.raw, t)) {
			return keyed{}, false // the reference looks for orphans inside blocks only
		}
		msg := "Tool result has no matching tool call (missing tool_call_id)"
		if id, ok := get(message(mp.raw, r), "tool_call_id").(string); ok && id != "" {
			msg = fmt.Sprintf("Tool result has no matching tool call (tool_call_id=%s)", id)
		}
		return mp.at(phaseResults, t, 3, r, h, msg), true
	},
	"role-sequence-mismatch": func(mp *mapping, h hit) (keyed, bool) {
		j := h.EntryIndex
		if j < 1 || j >= len(mp.entries) || j >= len(mp.traces) {
			return keyed{}, false
		}
		msg := fmt.Sprintf("Role sequence mismatch between entries %d and %d: '%s' -> '%s'", j, j+1, strings.Join(mp.traces[j-1], " "), strings.Join(mp.traces[j], " "))
		k := mp.at(phaseSequence, j, 0, 0, h, msg)
		k.f.Line = mp.entries[j].Line
		return k, true
	},
	// The reference has no line for a failed request: ours is a WARNING
	// line in the pack's words, on the entry's line.
	"proxy-http-error": func(mp *mapping, h hit) (keyed, bool) {
		if h.EntryIndex < 0 || h.EntryIndex >= len(mp.entries) {
			return keyed{}, false
		}
		return keyed{key: [4]int{phaseExtra, -1, h.EntryIndex, 0}, f: Finding{Rule: h.Rule, Message: h.Rule + ": " + h.Message, Line: mp.entries[h.EntryIndex].Line}}, true
	},
	"trailing-short-entry": func(mp *mapping, h hit) (keyed, bool) {
		if mp.trunc == nil {
			return keyed{}, false
		}
		k := mp.at(-1, 0, 0, 0, h, mp.trunc.String())
		k.f.Error = false
		return k, true
	},
}

func (mp *mapping) at(phase, a, b, c int, h hit, msg string) keyed {
	return keyed{key: [4]int{phase, a, b, c}, f: Finding{Error: h.Error, Rule: h.Rule, Message: msg, Line: mp.line}}
}

// reportLines orders the findings of one session as the reference does.
// Only the first flagged result of a call makes a line (the reference judges
// a call by its results together), and when messages is not a non-empty list
// the reference stops checking the record there.
func reportLines(mp *mapping, hits []hit) []Finding {
	var ks []keyed
	seenCall := map[[2]int]bool{}
	for _, h := range hits {
		f, ok := lineMaps[h.Rule]
		var k keyed
		if ok {
			k, ok = f(mp, h)
		}
		if !ok {
			k = keyed{key: [4]int{phaseExtra, h.MessageIndex, 0, 0}, f: Finding{Rule: h.Rule, Message: h.Rule + ": " + h.Message, Line: mp.line}}
		}
		if h.Rule == "tool-result-flagged" && ok {
			id := [2]int{k.key[1], k.key[3]}
			if seenCall[id] {
				continue
			}
			seenCall[id] = true
		}
		ks = append(ks, k)
	}
	if slices.ContainsFunc(ks, func(k keyed) bool { return k.f.Rule == "messages-shape" }) {
		ks = slices.DeleteFunc(ks, func(k keyed) bool {
			return k.key[0] == phaseTools || k.key[0] == phaseCalls || k.f.Rule == "tools-shape"
		})
	}
	slices.SortStableFunc(ks, func(a, b keyed) int {
		if c := slices.Compare(a.key[:], b.key[:]); c != 0 {
			return c
		}
		return cmp.Compare(a.f.Message, b.f.Message)
	})
	out := make([]Finding, len(ks))
	for i, k := range ks {
		out[i] = k.f
	}
	return out
}

func message(r *Record, i int) *jsonv.Object {
	if r == nil || i < 0 || i >= len(r.Messages) {
		return nil
	}
	return r.Messages[i]
}

// turn is the index of the latest assistant message at or before i, or -1.
func turn(r *Record, i int) int {
	for ; i >= 0; i-- {
		if get(message(r, i), "role") == "assistant" {
			return i
		}
	}
	return -1
}

// validCall returns the id and name of a tool call with a non-empty string
// id and a function object with a non-empty string name.
func validCall(c jsonv.Value) (id, name string, ok bool) {
	co, _ := c.(*jsonv.Object)
	id, _ = get(co, "id").(string)
	fn, _ := get(co, "function").(*jsonv.Object)
	name, _ = get(fn, "name").(string)
	return id, name, id != "" && name != "" && fn != nil
}

func hasValidCall(m *jsonv.Object) bool {
	calls, _ := get(m, "tool_calls").([]jsonv.Value)
	return slices.ContainsFunc(calls, func(c jsonv.Value) bool { _, _, ok := validCall(c); return ok })
}

// findCall returns the position and tool name of the valid call with this id.
func findCall(m *jsonv.Object, id string) (int, string) {
	calls, _ := get(m, "tool_calls").([]jsonv.Value)
	for i, c := range calls {
		if cid, name, ok := validCall(c); ok && cid == id {
			return i, name
		}
	}
	return -1, ""
}

// flagDetails words why a result is flagged as the reference does: an
// empty content (null or ""), or the flag keys found, lower-cased and sorted.
// The pack's message names the keys by JSON Pointer; the last segment of
// each is the key.
func flagDetails(msg string, content jsonv.Value) (string, bool) {
	if i := strings.Index(msg, " (warning only:"); i >= 0 {
		msg = msg[:i]
	}
	if strings.HasSuffix(msg, "its content is empty") {
		if content == nil || content == "" {
			return "empty tool result content", true
		}
		return "", false
	}
	const at = "truthy flag key at "
	i := strings.LastIndex(msg, at)
	if i < 0 {
		return "", false
	}
	var keys []string
	for _, p := range strings.Split(msg[i+len(at):], ", ") {
		k := p[strings.LastIndexByte(p, '/')+1:]
		k = strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(k, "~1", "/"), "~0", "~"))
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return "errorish keys present: " + strings.Join(keys, ", "), true
}
