package openai

import (
	"testing"

	"github.com/chatlint/chatlint/engine/document"
)

// Agent session and trajectory formats convert through their documents
// like every format; what their adapters read into no message (run
// metadata, counters, UI copies) is named in a note, never dropped without
// a word.
func TestConvertAgentFormats(t *testing.T) {
	tests := []convertCase{
		{
			name:   "Gemini CLI: calls with their functionResponse results; thoughts kept as reasoning; tokens and the info notice named",
			format: document.GeminiCLI,
			opts:   Options{KeepReasoning: true},
			in: `{"sessionId":"s","projectHash":"h","startTime":"t","lastUpdated":"t","messages":[` +
				`{"id":"1","timestamp":"t","type":"user","content":"Paris?"},` +
				`{"id":"2","timestamp":"t","type":"gemini","content":"","thoughts":[{"subject":"Weather","description":"Ask the tool."}],"tokens":{"total":1},"toolCalls":[{"id":"c1","name":"get_weather","args":{"city":"Paris"},"status":"success","result":[{"functionResponse":{"id":"c1","name":"get_weather","response":{"output":"18 C"}}}]}]},` +
				`{"id":"3","timestamp":"t","type":"info","content":"Saved."},` +
				`{"id":"4","timestamp":"t","type":"gemini","content":"18 °C."}]}`,
			want: []string{`{"messages":[{"role":"user","content":"Paris?"},{"role":"assistant","content":"<think>\nWeather\nAsk the tool.\n</think>","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},{"role":"tool","content":"18 C","tool_call_id":"c1"},{"role":"assistant","content":"18 °C."}],"tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{}}}}]}`},
			notes: []string{
				"1: Gemini CLI members info messages (notices the CLI showed, never sent to the model), lastUpdated, messages[].id, messages[].timestamp, messages[].tokens, projectHash, sessionId, startTime: not kept in an OpenAI chat example",
				"1: the conversation calls tools it does not define (get_weather): each is written with a schema that takes any object",
			},
		},
		{
			name:   "Responses items: a function_call joins the assistant turn, its output is a tool message; reasoning named",
			format: document.OpenAIResponses,
			in: `{"type":"message","role":"user","content":[{"type":"input_text","text":"Paris?"}]}
{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Use the tool."}]}
{"type":"function_call","call_id":"c1","name":"get_weather","arguments":"{\"city\":\"Paris\"}"}
{"type":"function_call_output","call_id":"c1","output":"18 C"}
{"type":"message","role":"assistant","content":[{"type":"output_text","text":"18 °C.","annotations":[]}]}`,
			want: []string{`{"messages":[{"role":"user","content":"Paris?"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},{"role":"tool","content":"18 C","tool_call_id":"c1"},{"role":"assistant","content":"18 °C."}],"tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{}}}}]}`},
			notes: []string{
				"2: Responses API members reasoning items: not kept in an OpenAI chat example",
				"1: the conversation calls tools it does not define (get_weather): each is written with a schema that takes any object",
			},
		},
		{
			name:   "Cline: tool_use and tool_result blocks; ts named",
			format: document.Cline,
			in: `{"role":"user","content":[{"type":"text","text":"<task>Paris?</task>"}],"ts":1}
{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"get_weather","input":{"city":"Paris"}}],"ts":2}
{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"18 C"}],"ts":3}
{"role":"assistant","content":[{"type":"text","text":"18 °C."}],"ts":4}`,
			want: []string{`{"messages":[{"role":"user","content":"<task>Paris?</task>"},{"role":"assistant","tool_calls":[{"id":"t1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},{"role":"tool","content":"18 C","tool_call_id":"t1"},{"role":"assistant","content":"18 °C."}],"tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{}}}}]}`},
			notes: []string{
				"1: Cline members messages[].ts: not kept in an OpenAI chat example",
				"1: the conversation calls tools it does not define (get_weather): each is written with a schema that takes any object",
			},
		},
		{
			name:   "SWE-agent: history as the conversation; trajectory and info named",
			format: document.SWEAgent,
			in:     `{"history":[{"role":"system","content":"Fix bugs.","agent":"main"},{"role":"user","content":"Fix add."},{"role":"assistant","content":"Done.","thought":"Done.","action":"submit"}],"trajectory":[{"action":"submit","observation":""}],"info":{"exit_status":"submitted"}}`,
			want:   []string{`{"messages":[{"role":"system","content":"Fix bugs."},{"role":"user","content":"Fix add."},{"role":"assistant","content":"Done."}]}`},
			notes:  []string{"1: SWE-agent members history[].agent, info, trajectory: not kept in an OpenAI chat example"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}
