package document

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/jsonl"
)

// realDataDir holds public sample files shared by the project's tests.
var realDataDir = filepath.Join("..", "..", "..", "shared", "data")

// expectedFormat is the format detected for each sample file; files not
// named here must be unrecognized.
func expectedFormat(rel string) Format {
	switch {
	case strings.HasPrefix(rel, "openai-finetune/"):
		return Chat
	case strings.HasPrefix(rel, "agent-sessions/pi/"):
		return PiSession
	case strings.HasPrefix(rel, "agent-sessions/claude-code/"):
		return ClaudeCode
	case strings.HasPrefix(rel, "agent-sessions/codex/"):
		return Codex
	}
	return map[string]Format{
		"tool-tags-sharegpt/albicilla-conv-format-example.json": Chat,
		"proxy-logs/litellm-standard-logging-payload.json":      Chat, // top-level messages
		"proxy-logs/routex-anthropic-proxy-requests.jsonl":      ProxyLog,
		"conversation-records/kura-mtbench-conversations.jsonl": Chat, // chat_id, not conversation_id

		"tool-tags-sharegpt/llamafactory-glaive-toolcall-sharegpt.json":      ShareGPT,
		"tool-tags-sharegpt/fastchat-dummy-conversation-sharegpt.json":       ShareGPT,
		"tool-tags-sharegpt/axolotl-sharegpt-conversation.json":              ShareGPT,
		"tool-tags-sharegpt/axolotl-sharegpt-conversation-missingturns.json": ShareGPT,
		"proxy-logs/groq-batch-input.jsonl":                                  OpenAIBatchInput,
		"proxy-logs/groq-batch-output.jsonl":                                 OpenAIBatchOutput,
		"agent-sessions/goose/agentscribe-goose-sample-session.jsonl":        GooseSession,

		// the formats fine-tuning providers take besides chat
		"llamafactory/llamafactory-identity.json":                               Instruction, // Alpaca
		"llamafactory/axolotl-alpaca-fixture.json":                              Instruction,
		"finetune-formats/mlx-examples-lora-valid-text.jsonl":                   Text,
		"finetune-formats/mlx-examples-wwdc25-valid-prompt-completion.jsonl":    Instruction,
		"finetune-formats/together-cookbook-rewardbench2_dpo_val.first40.jsonl": Preference,
	}[rel]
}

// readRecords reads a file the way the CLI does: a .json file as one
// document (or as JSON Lines when it holds several values), anything else as
// JSON Lines.
func readRecords(t testing.TB, path string) []jsonl.Record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if jsonl.IsJSONDocument(path) {
		recs, ok, err := jsonl.SplitJSON(data)
		if ok {
			if err != nil {
				t.Errorf("SplitJSON: %v", err)
			}
			return recs
		}
	}
	var recs []jsonl.Record
	rd := jsonl.NewReader(bytes.NewReader(data))
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return recs
		}
		if err != nil {
			t.Fatal(err)
		}
		rec.Data = bytes.Clone(rec.Data)
		recs = append(recs, rec)
	}
}

type objRecord struct {
	line int
	obj  ast.Object
}

// realFile is what the test learnt from one sample file.
type realFile struct {
	format Format // "" when unrecognized
	objs   []objRecord
	docs   []*Document
}

func buildAll(f Format, file string, objs []objRecord) []*Document {
	b := NewBuilder(f, file, Options{})
	var docs []*Document
	for _, o := range objs {
		if d := b.Add(o.line, o.obj); d != nil {
			docs = append(docs, d)
		}
	}
	if d := b.Finish(); d != nil {
		docs = append(docs, d)
	}
	return docs
}

func loadRealData(t *testing.T) map[string]*realFile {
	t.Helper()
	if _, err := os.Stat(realDataDir); err != nil {
		t.Skipf("no sample data: %v", err)
	}
	files := map[string]*realFile{}
	err := filepath.WalkDir(realDataDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !jsonl.IsDataFile(path) {
			return err
		}
		rel, err := filepath.Rel(realDataDir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		rf := &realFile{}
		files[rel] = rf
		for _, rec := range readRecords(t, path) {
			v, err := astjson.Decode(rec.Data)
			if o, ok := v.(ast.Object); err == nil && ok {
				rf.objs = append(rf.objs, objRecord{rec.Line, o})
			}
		}
		if len(rf.objs) == 0 {
			return nil
		}
		if f, ok := Detect(rf.objs[0].obj); ok {
			rf.format = f
			rf.docs = buildAll(f, rel, rf.objs)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("no sample data files")
	}
	return files
}

// TestRealData reads every sample file like the CLI, detects its format and
// builds its documents, then checks facts verified by looking at the files.
func TestRealData(t *testing.T) {
	files := loadRealData(t)

	for rel, rf := range files {
		if want := expectedFormat(rel); rf.format != want {
			t.Errorf("%s: detected %q, want %q", rel, rf.format, want)
		}
		if rf.format == "" {
			continue
		}
		if rf.format.PerFile() && len(rf.docs) != 1 {
			t.Errorf("%s: %d documents, want one session", rel, len(rf.docs))
		}
		if !rf.format.PerFile() && len(rf.docs) != len(rf.objs) {
			t.Errorf("%s: %d documents for %d records", rel, len(rf.docs), len(rf.objs))
		}
		for _, d := range rf.docs {
			checkInvariants(t, rel, d)
		}
	}

	t.Run("cookbook drone file", func(t *testing.T) {
		rf := mustFile(t, files, "openai-finetune/cookbook-drone-training-tools.jsonl")
		if len(rf.docs) != 103 {
			t.Fatalf("%d documents, want 103", len(rf.docs))
		}
		for _, d := range rf.docs {
			m := docMap(t, d)
			names := map[string]bool{}
			for _, tl := range m["tools"].([]any) {
				tl := tl.(map[string]any)
				names[tl["name"].(string)] = true
				if !strings.HasSuffix(tl["function_path"].(string), "/function") {
					t.Errorf("line %d: wrapped tool with function_path %v", d.Line, tl["function_path"])
				}
			}
			if m["mode"] != "structured" || d.ID != fallbackID(fileOf(rf), d.Line) {
				t.Errorf("line %d: mode %v id %q", d.Line, m["mode"], d.ID)
			}
			msgs := m["messages"].([]any)
			if diff := cmp.Diff([]string{"system", "user", "assistant"}, roles(msgs)); diff != "" {
				t.Errorf("line %d roles (-want +got):\n%s", d.Line, diff)
			}
			a := msgs[2].(map[string]any)
			calls := a["tool_calls"].([]any)
			if len(calls) != 1 || a["has_content"] != false {
				t.Fatalf("line %d: assistant %v", d.Line, a)
			}
			c := calls[0].(map[string]any)
			if c["id"] != "call_id" || !names[c["name"].(string)] || c["has_input"] != true || c["path"] != "/messages/2/tool_calls/0" {
				t.Errorf("line %d: call %v", d.Line, c)
			}
			if _, isString := c["arguments"].(string); !isString {
				t.Errorf("line %d: arguments %v are not the JSON string as given", d.Line, c["arguments"])
			}
		}
	})

	t.Run("pi session", func(t *testing.T) {
		rf := mustFile(t, files, "agent-sessions/pi/pi-large-session-v1.jsonl")
		d := rf.docs[0]
		if d.ID != "d703a1a9-1b7b-4fb1-b512-c9738b1fe617" || d.Line != 1 {
			t.Errorf("id %q line %d", d.ID, d.Line)
		}
		m := docMap(t, d)
		if raw := m["raw"].(map[string]any); raw["type"] != "session" || raw["id"] != d.ID {
			t.Errorf("raw is not the header: %v", raw)
		}
		entries := m["entries"].([]any)
		if len(entries) != 1018 {
			t.Errorf("%d entries, want 1018", len(entries))
		}
		messageLines := map[float64]bool{}
		for _, e := range entries {
			if e := e.(map[string]any); e["type"] == "message" {
				messageLines[e["line"].(float64)] = true
			}
		}
		msgs := m["messages"].([]any)
		if len(msgs) != 914 || len(messageLines) != 914 {
			t.Errorf("%d messages and %d message entries, want 914", len(msgs), len(messageLines))
		}
		callIDs := map[string]bool{}
		nCalls, nTool := 0, 0
		for _, msg := range msgs {
			msg := msg.(map[string]any)
			if msg["path"] != "/message" || !messageLines[msg["line"].(float64)] {
				t.Fatalf("message %v at line %v path %v", msg["index"], msg["line"], msg["path"])
			}
			switch msg["role"] {
			case "toolResult":
				t.Fatalf("message %v keeps the role toolResult", msg["index"])
			case "tool":
				nTool++
				id, _ := msg["tool_call_id"].(string)
				if !callIDs[id] {
					t.Errorf("tool message %v: tool_call_id %q matches no earlier toolCall", msg["index"], id)
				}
				if raw := msg["raw"].(map[string]any); raw["role"] != "toolResult" || raw["toolCallId"] != id {
					t.Errorf("tool message %v raw %v", msg["index"], raw)
				}
			}
			for _, c := range msg["tool_calls"].([]any) {
				c := c.(map[string]any)
				nCalls++
				callIDs[c["id"].(string)] = true
				if c["name"] == "" || c["has_input"] != true || !strings.HasPrefix(c["path"].(string), "/message/content/") {
					t.Errorf("call %v", c)
				}
			}
		}
		if nTool != 373 || nCalls != 391 {
			t.Errorf("%d tool results and %d calls, want 373 and 391", nTool, nCalls)
		}
	})

	t.Run("pi session with compaction", func(t *testing.T) {
		rf := mustFile(t, files, "agent-sessions/pi/pi-before-compaction.jsonl")
		d := rf.docs[0]
		if d.ID != "ffae836b-9420-4060-ac13-7745215f90ff" {
			t.Errorf("id %q", d.ID)
		}
		m := docMap(t, d)
		types := map[string]int{}
		for _, e := range m["entries"].([]any) {
			types[e.(map[string]any)["type"].(string)]++
		}
		if diff := cmp.Diff(map[string]int{"message": 990, "compaction": 2, "model_change": 5, "thinking_level_change": 5}, types); diff != "" {
			t.Errorf("entry types (-want +got):\n%s", diff)
		}
		byRole := map[string]int{}
		for _, msg := range m["messages"].([]any) {
			byRole[msg.(map[string]any)["role"].(string)]++
		}
		if diff := cmp.Diff(map[string]int{"assistant": 484, "bashExecution": 3, "tool": 448, "user": 55}, byRole); diff != "" {
			t.Errorf("roles (-want +got):\n%s", diff)
		}
	})

	t.Run("albicilla inline example", func(t *testing.T) {
		rf := mustFile(t, files, "tool-tags-sharegpt/albicilla-conv-format-example.json")
		if len(rf.docs) != 1 {
			t.Fatalf("%d documents", len(rf.docs))
		}
		d := rf.docs[0]
		m := docMap(t, d)
		if m["mode"] != "inline" || d.Line != 1 {
			t.Errorf("mode %v line %d", m["mode"], d.Line)
		}
		msgs := m["messages"].([]any)
		if diff := cmp.Diff([]string{"user", "assistant", "tool", "assistant"}, roles(msgs)); diff != "" {
			t.Errorf("roles (-want +got):\n%s", diff)
		}
		wantCalls := js(t, `[{"index":0,"id":"inline-1-0","name":"calculate_tip_split",
			"arguments":{"total_bill":250,"number_of_people":5},"has_input":true,"path":"/messages/1/content"}]`)
		if diff := cmp.Diff(wantCalls, msgs[1].(map[string]any)["tool_calls"]); diff != "" {
			t.Errorf("tool calls (-want +got):\n%s", diff)
		}
		if _, ok := msgs[2].(map[string]any)["tool_call_id"]; ok {
			t.Error("the tool message has no tool_call_id in the file")
		}
		var names []string
		for i, tl := range m["tools"].([]any) {
			tl := tl.(map[string]any)
			names = append(names, tl["name"].(string))
			if tl["function_path"] != tl["path"] || tl["path"] != pointerIndex("/tools", i) {
				t.Errorf("flattened tool %d: path %v function_path %v", i, tl["path"], tl["function_path"])
			}
		}
		want := []string{"search_recipes", "calculate_tip_split", "search_recipes", "recommend_books", "calculate_loan_emi", "create_task"}
		if diff := cmp.Diff(want, names); diff != "" {
			t.Errorf("tool names (-want +got):\n%s", diff)
		}
	})

	t.Run("routex proxy log", func(t *testing.T) {
		rf := mustFile(t, files, "proxy-logs/routex-anthropic-proxy-requests.jsonl")
		d := rf.docs[0]
		if d.ID != "proxy-logs/routex-anthropic-proxy-requests.jsonl:1" {
			t.Errorf("id %q", d.ID)
		}
		m := docMap(t, d)
		want := js(t, `{
			"entries": [
				{"index":0,"line":1,"type":"request","timestamp":1760696744462,"status":401,"valid":true,"message_count":1,"roles":["U"]},
				{"index":1,"line":2,"type":"request","timestamp":1760697270047,"status":405,"valid":false,"message_count":0,"roles":[]}],
			"messages": [{"index":0,"role":"user","text":"Hi","has_content":true,"tool_calls":[],"turn":-1,
				"line":1,"path":"/request/body/messages/0","raw":{"role":"user","content":"Hi"}}],
			"tools": [],
			"raw": {"messages":[{"role":"user","content":"Hi"}],"tools":[]}}`)
		got := map[string]any{"entries": m["entries"], "messages": m["messages"], "tools": m["tools"], "raw": m["raw"]}
		if diff := cmp.Diff(want, any(got)); diff != "" {
			t.Errorf("document (-want +got):\n%s", diff)
		}
	})

	t.Run("litellm payload", func(t *testing.T) {
		rf := mustFile(t, files, "proxy-logs/litellm-standard-logging-payload.json")
		if len(rf.docs) != 1 {
			t.Fatalf("%d documents", len(rf.docs))
		}
		d := rf.docs[0]
		if d.ID != "chatcmpl-2299b6a2-82a3-465a-b47c-04e685a2227f" || d.Line != 1 {
			t.Errorf("id %q line %d", d.ID, d.Line)
		}
		got := project(docMap(t, d)["messages"], "role", "text")
		if diff := cmp.Diff([]map[string]any{{"role": "user", "text": "Hello, world!"}}, got); diff != "" {
			t.Errorf("messages (-want +got):\n%s", diff)
		}
	})

	t.Run("kura conversation records", func(t *testing.T) {
		rf := mustFile(t, files, "conversation-records/kura-mtbench-conversations.jsonl")
		if len(rf.docs) != 500 {
			t.Fatalf("%d documents, want 500", len(rf.docs))
		}
		for i, d := range rf.docs {
			if d.Line != i+1 || d.ID != fallbackID(fileOf(rf), i+1) || d.Messages().Len() == 0 {
				t.Fatalf("document %d: line %d id %q %d messages", i, d.Line, d.ID, d.Messages().Len())
			}
		}
	})

	t.Run("codex malformed rollout", func(t *testing.T) {
		rf, ok := files["agent-sessions/codex/cclog-codex-rollout-malformed.jsonl"]
		if !ok {
			t.Skip("not in the sample data")
		}
		if len(rf.objs) != 2 {
			t.Errorf("%d object records, want 2 (the last line is broken)", len(rf.objs))
		}
	})
}

// TestRealDataForcedFormats builds every sample file with every format, as
// --format would: no panic, and the invariants hold.
func TestRealDataForcedFormats(t *testing.T) {
	files := loadRealData(t)
	for rel, rf := range files {
		for _, f := range Formats {
			for _, d := range buildAll(f, rel, rf.objs) {
				checkInvariants(t, rel+" as "+string(f), d)
			}
		}
	}
}

// checkInvariants checks what holds for every document.
func checkInvariants(t *testing.T, name string, d *Document) {
	t.Helper()
	if d.Value == nil || d.ID == "" || d.Line < 1 {
		t.Errorf("%s: document %+v", name, *d)
		return
	}
	for i := 0; i < d.Messages().Len(); i++ {
		m := d.Messages().Elem(i).Value.(ast.Object)
		// A message's path is a pointer into its line: "" when the message
		// is the whole line (goose sessions).
		if p := stringField(m, KeyPath); intField(m, KeyIndex) != i || intField(m, KeyLine) < 1 || (p != "" && !strings.HasPrefix(p, "/")) {
			t.Errorf("%s: message %d: %v", name, i, m)
			return
		}
		turn := intField(m, keyTurn)
		if turn > i || turn < -1 {
			t.Errorf("%s: message %d has turn %d", name, i, turn)
		}
		if line, path, _ := d.Locate(TargetOf(i, -1, -1, -1)); line != intField(m, KeyLine) || path != stringField(m, KeyPath) {
			t.Errorf("%s: Locate(message %d) = %d, %q", name, i, line, path)
		}
		calls := arrayField(m, KeyToolCalls)
		if calls == nil {
			t.Errorf("%s: message %d has no tool_calls array", name, i)
			return
		}
		for j := 0; j < calls.Len(); j++ {
			c := calls.Elem(j).Value.(ast.Object)
			// A call is inside its message, or (a Codex call item) is a
			// payload of its own.
			cp, mp := stringField(c, KeyPath), stringField(m, KeyPath)
			if intField(c, KeyIndex) != j || !strings.HasPrefix(cp, mp+"/") && !(d.Format == Codex && cp == mp) {
				t.Errorf("%s: message %d call %d: %v", name, i, j, c)
			}
		}
	}
	for i := 0; i < d.Tools().Len(); i++ {
		tl := d.Tools().Elem(i).Value.(ast.Object)
		if intField(tl, KeyIndex) != i || !strings.HasPrefix(stringField(tl, KeyFunctionPath), stringField(tl, KeyPath)) {
			t.Errorf("%s: tool %d: %v", name, i, tl)
		}
	}
}

func mustFile(t *testing.T, files map[string]*realFile, rel string) *realFile {
	t.Helper()
	rf, ok := files[rel]
	if !ok {
		t.Skipf("%s is not in the sample data", rel)
	}
	if len(rf.docs) == 0 {
		t.Fatalf("%s: no documents", rel)
	}
	return rf
}

func fileOf(rf *realFile) string { return rf.docs[0].File }

func roles(msgs []any) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.(map[string]any)["role"].(string))
	}
	return out
}

// TestRealDataAgentSessions checks facts of the Claude Code and Codex
// samples, verified by reading the files.
func TestRealDataAgentSessions(t *testing.T) {
	files := loadRealData(t)

	t.Run("claude code session", func(t *testing.T) {
		rf := mustFile(t, files, "agent-sessions/claude-code/clio-entire-claude-code-session.jsonl")
		d := rf.docs[0]
		m := docMap(t, d)
		if len(m["entries"].([]any)) != 471 {
			t.Errorf("%d entries, want one per line (471)", len(m["entries"].([]any)))
		}
		// Lines 131-135 are one API message (msg_vrtx_…vnDuLY): a text line
		// and four parallel calls; their results (136-139) hang each under
		// its own call, only the last on the parent chain.
		var found bool
		for _, x := range m["messages"].([]any) {
			msg := x.(map[string]any)
			if msg["line"] != 131.0 {
				continue
			}
			found = true
			if diff := cmp.Diff([]any{131.0, 132.0, 133.0, 134.0, 135.0}, msg["lines"]); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
			var lines []any
			for _, c := range msg["tool_calls"].([]any) {
				lines = append(lines, c.(map[string]any)["line"])
			}
			if diff := cmp.Diff([]any{132.0, 133.0, 134.0, 135.0}, lines); diff != "" {
				t.Errorf("call lines (-want +got):\n%s", diff)
			}
			idx := int(msg["index"].(float64))
			msgs := m["messages"].([]any)
			var results []any
			for _, r := range msgs[idx+1 : idx+5] {
				results = append(results, r.(map[string]any)["line"])
			}
			if diff := cmp.Diff([]any{136.0, 137.0, 138.0, 139.0}, results); diff != "" {
				t.Errorf("result lines (-want +got):\n%s", diff)
			}
		}
		if !found {
			t.Error("no message at line 131")
		}
	})

	t.Run("codex rollout", func(t *testing.T) {
		rf := mustFile(t, files, "agent-sessions/codex/cclog-codex-rollout-synthetic.jsonl")
		d := rf.docs[0]
		if d.ID != "11111111-1111-4111-8111-111111111111" {
			t.Errorf("id %q", d.ID)
		}
		msgs := docMap(t, d)["messages"].([]any)
		want := []string{"user", "assistant", "tool", "assistant", "tool", "assistant", "tool", "assistant"}
		if diff := cmp.Diff(want, roles(msgs)); diff != "" {
			t.Errorf("roles (-want +got): the event_msg copies and the reasoning item are not messages\n%s", diff)
		}
	})
}
