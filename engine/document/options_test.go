package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// formatSamples holds, per registered format, the lines of one small
// document. A format added to the registry without a sample fails
// TestOptionsReachEveryFormat, so the options of a run reach it too.
var formatSamples = map[Format][]string{
	Chat:     {`{"messages":[{"role":"user","content":"hi"}]}`},
	Contract: {`{"conversation_id":"c1","user_id":"u1","timestamp":"t","messages":[],"metadata":{}}`},
	ProxyLog: {`{"timestamp":"t","session_id":"s","request":{"messages":[{"role":"user","content":"a"}]},"response":{}}`},
	PiSession: {
		`{"type":"session","id":"s"}`,
		`{"type":"message","message":{"role":"user","content":"hi"}}`,
	},
	GooseSession: {
		`{"working_dir":"/","description":"d","message_count":1}`,
		`{"role":"user","created":1,"content":[{"type":"text","text":"hi"}]}`,
	},
	ClaudeCode: {cc("a1", "", "user", `{"role":"user","content":"hi"}`)},
	Codex:      {`{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}`},
	ShareGPT:   {`{"conversations":[{"from":"human","value":"hi"}]}`},
	XLAM:       {`{"query":"hi","tools":"[]","answers":"[]"}`},
	Gemini:     {`{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`},
	OpenAIBatchInput: {
		`{"custom_id":"r1","method":"POST","url":"/v1/chat/completions","body":{"model":"m","messages":[{"role":"user","content":"hi"}]}}`,
	},
	OpenAIBatchOutput: {
		`{"id":"b","custom_id":"r1","response":{"status_code":200,"body":{"choices":[{"message":{"role":"assistant","content":"a"}}]}},"error":null}`,
	},
	AnthropicBatch:      {`{"custom_id":"r1","params":{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}}`},
	Preference:          {`{"input":{"messages":[{"role":"user","content":"hi"}]},"preferred_output":[{"role":"assistant","content":"a"}],"non_preferred_output":[{"role":"assistant","content":"b"}]}`},
	Instruction:         {`{"prompt":"hi","completion":"a"}`},
	Text:                {`{"text":"hi"}`},
	BedrockConversation: {`{"schemaVersion":"bedrock-conversation-2024","messages":[{"role":"user","content":[{"text":"hi"}]}]}`},
	GeminiCLI:           {`{"sessionId":"s","projectHash":"h","messages":[{"id":"m","type":"user","content":"hi"}]}`},
	SWEAgent:            {`{"history":[{"role":"user","content":"hi"}],"info":{}}`},
	MiniSWEAgent:        {`{"messages":[{"role":"user","content":"hi"}],"trajectory_format":"mini-swe-agent-1.1"}`},
	OpenHands:           {`{"id":0,"source":"user","action":"message","args":{"content":"hi"}}`},
	OpenAIResponses:     {`{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}`},
	AgentsRunState:      {`{"$schemaVersion":"1.13","original_input":"hi","generated_items":[]}`},
	LangChain:           {`{"messages":[{"type":"human","content":"hi"}]}`},
	Cline:               {`{"role":"user","content":"hi","ts":1}`},
}

// The run's options (the profile, check --model, leaving lookup out) reach
// the document of every format alike: a --model run judged ShareGPT,
// Gemini, batch and agent-session examples without a model before.
func TestOptionsReachEveryFormat(t *testing.T) {
	model := &Model{Name: "m-1", Encoding: "o200k_base", Limit: 100, PricePerMillion: 2}
	for _, f := range Formats {
		t.Run(string(f), func(t *testing.T) {
			lines, ok := formatSamples[f]
			if !ok {
				t.Fatalf("no sample for format %s: add one to formatSamples", f)
			}
			with := one(t, f, Options{Profile: "openai", Model: model}, lines...)
			got := docMap(t, with)
			want := map[string]any{"name": "m-1", "encoding": "o200k_base", "limit": float64(100), "price_per_million": float64(2)}
			if diff := cmp.Diff(want, got["model"]); diff != "" {
				t.Errorf("model (-want +got):\n%s", diff)
			}
			if got["profile"] != "openai" {
				t.Errorf("profile %v, want openai", got["profile"])
			}
			if _, ok := got["lookup"]; !ok {
				t.Errorf("lookup missing from a document built without SkipLookup")
			}
			without := docMap(t, one(t, f, Options{SkipLookup: true}, lines...))
			if _, ok := without["lookup"]; ok {
				t.Errorf("lookup built under SkipLookup")
			}
			if _, ok := without["model"]; ok {
				t.Errorf("model present in a run without one")
			}
		})
	}
}
