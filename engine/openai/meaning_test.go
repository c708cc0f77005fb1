package openai

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/document"
)

// convertCase is one input converted: the examples and notes it gives.
type convertCase struct {
	name   string
	format document.Format
	in     string
	opts   Options
	want   []string // the examples, as JSON lines
	notes  []string // "line: message", "!" in front for an error note
}

func (tt convertCase) run(t *testing.T) {
	t.Helper()
	var got, notes []string
	for _, d := range documents(t, tt.format, tt.in) {
		exs, ns := Convert(d, tt.opts)
		for _, ex := range exs {
			b, err := json.Marshal(ex)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, string(b))
		}
		for _, n := range ns {
			s := ""
			if n.Error {
				s = "!"
			}
			notes = append(notes, s+itoa(n.Line)+": "+n.Message)
		}
	}
	if diff := cmp.Diff(decodeAll(t, tt.want), decodeAll(t, got)); diff != "" {
		t.Errorf("examples (-want +got):\n%s\ngot:\n%s", diff, strings.Join(got, "\n"))
	}
	if diff := cmp.Diff(tt.notes, notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

// TestConvertKeepsTrainingMeaning holds what a record says about training
// — weights, preference pairs, KTO labels, images — through convert.
func TestConvertKeepsTrainingMeaning(t *testing.T) {
	for _, tt := range []convertCase{
		{
			name:   "weight carried on assistant messages",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hey.","weight":0},{"role":"user","content":"Again"},{"role":"assistant","content":"Hello!","weight":1}]}`,
			want:   []string{`{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hey.","weight":0},{"role":"user","content":"Again"},{"role":"assistant","content":"Hello!","weight":1}]}`},
		},
		{
			name:   "a weight OpenAI does not take is noted",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hey.","weight":0.5}]}`,
			want:   []string{`{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hey."}]}`},
			notes:  []string{"1: assistant message 1 has weight 0.5; OpenAI takes 0 or 1: left out"},
		},
		{
			name:   "LLaMA-Factory loss_weight 0.0 / 1.0 on assistant messages: their weight; 0.0 on a user message is what OpenAI does anyway",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"Hi","loss_weight":0.0},{"role":"assistant","content":"Hey.","loss_weight":0.0},{"role":"user","content":"Again","loss_weight":0.0},{"role":"assistant","content":"Hello!","loss_weight":1.0}]}`,
			want:   []string{`{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hey.","weight":0},{"role":"user","content":"Again"},{"role":"assistant","content":"Hello!","weight":1}]}`},
		},
		{
			name:   "axolotl's train and training flags on assistant messages: their weight",
			format: document.ShareGPT,
			in:     `{"conversations":[{"from":"human","value":"Hi","train":false},{"from":"gpt","value":"Hey.","train":false},{"from":"human","value":"Again"},{"from":"gpt","value":"Hello!","training":true}]}`,
			want:   []string{`{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hey.","weight":0},{"role":"user","content":"Again"},{"role":"assistant","content":"Hello!","weight":1}]}`},
		},
		{
			name:   "flags that cannot be kept are named: a fractional loss_weight, flags that disagree, a trained user message, train_detail spans",
			format: document.Chat,
			in:     `{"messages":[{"role":"system","content":"Be brief.","train":true},{"role":"user","content":"Hi","loss_weight":1.0},{"role":"assistant","content":"Hey.","loss_weight":0.5},{"role":"user","content":"Again"},{"role":"assistant","content":"Hello!","weight":1,"train":false},{"role":"user","content":"Bye"},{"role":"assistant","content":"See you.","train_detail":[{"begin_offset":0,"end_offset":3,"train":true}]}]}`,
			want:   []string{`{"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"},{"role":"assistant","content":"Hey."},{"role":"user","content":"Again"},{"role":"assistant","content":"Hello!"},{"role":"user","content":"Bye"},{"role":"assistant","content":"See you."}]}`},
			notes: []string{
				"1: system message 0 has train true; OpenAI trains on assistant messages only: left out",
				"1: user message 1 has loss_weight 1.0; OpenAI trains on assistant messages only: left out",
				"1: assistant message 2 has loss_weight 0.5; OpenAI takes 0 or 1: left out",
				"1: assistant message 4 has weight 1 and train false, which disagree: no weight written",
				"1: assistant message 6 has train_detail (spans of its text to train on); OpenAI weighs whole messages: left out",
			},
		},
		{
			name:   "reasoning members and LLaMA-Factory reasoning parts: left out with one note per record",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"2+2?"},{"role":"assistant","content":"4","reasoning_content":"Add them."},{"role":"user","content":"3+3?"},{"role":"assistant","content":[{"type":"reasoning","value":"Add again."},{"type":"text","value":"6"}]},{"role":"user","content":"4+4?"},{"role":"assistant","content":"8","thinking":"Double 4."}]}`,
			want:   []string{`{"messages":[{"role":"user","content":"2+2?"},{"role":"assistant","content":"4"},{"role":"user","content":"3+3?"},{"role":"assistant","content":"6"},{"role":"user","content":"4+4?"},{"role":"assistant","content":"8"}]}`},
			notes:  []string{"1: the reasoning of messages 1, 3 and 5 (reasoning_content, reasoning parts, thinking) is left out: --keep-reasoning writes it as <think> text before the assistant's answer"},
		},
		{
			name:   "reasoning members kept with --keep-reasoning; encrypted reasoning named",
			format: document.Chat,
			opts:   Options{KeepReasoning: true},
			in:     `{"messages":[{"role":"user","content":"2+2?"},{"role":"assistant","content":[{"type":"redacted_thinking","data":"EuYB"},{"type":"text","text":"4"}]},{"role":"user","content":"3+3?"},{"role":"assistant","content":[{"type":"reasoning","value":"Add again."},{"type":"text","value":"6"}]}]}`,
			want:   []string{`{"messages":[{"role":"user","content":"2+2?"},{"role":"assistant","content":"4"},{"role":"user","content":"3+3?"},{"role":"assistant","content":"<think>\nAdd again.\n</think>\n6"}]}`},
			notes:  []string{"1: Message 1 holds encrypted reasoning (redacted_thinking), which no OpenAI example can hold: left out"},
		},
		{
			name:   "ShareGPT preference record: an OpenAI preference (DPO) example",
			format: document.ShareGPT,
			in:     `{"system":"Be kind.","conversations":[{"from":"human","value":"Name a prime."}],"chosen":{"from":"gpt","value":"7"},"rejected":{"from":"gpt","value":"8"}}`,
			want:   []string{`{"input":{"messages":[{"role":"system","content":"Be kind."},{"role":"user","content":"Name a prime."}]},"preferred_output":[{"role":"assistant","content":"7"}],"non_preferred_output":[{"role":"assistant","content":"8"}]}`},
		},
		{
			name:   "ShareGPT preference record with answers as lists and strings",
			format: document.ShareGPT,
			in:     `{"conversations":[{"from":"human","value":"Name a prime."}],"chosen":[{"from":"gpt","value":"7"}],"rejected":"8"}`,
			want:   []string{`{"input":{"messages":[{"role":"user","content":"Name a prime."}]},"preferred_output":[{"role":"assistant","content":"7"}],"non_preferred_output":[{"role":"assistant","content":"8"}]}`},
		},
		{
			name:   "LLaMA-Factory preference record in its OpenAI-style layout: messages, chosen and rejected messages",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"Name a prime."}],"chosen":{"role":"assistant","content":"7"},"rejected":[{"role":"assistant","content":"8"}]}`,
			want:   []string{`{"input":{"messages":[{"role":"user","content":"Name a prime."}]},"preferred_output":[{"role":"assistant","content":"7"}],"non_preferred_output":[{"role":"assistant","content":"8"}]}`},
		},
		{
			name:   "a preference record missing an answer gives no example",
			format: document.ShareGPT,
			in:     `{"conversations":[{"from":"human","value":"Name a prime."}],"chosen":{"from":"gpt","value":"7"}}`,
			notes:  []string{"!1: the preference record needs a chosen and a rejected assistant answer: no example written"},
		},
		{
			name:   "KTO record marked undesirable: skipped with a note, never a positive example",
			format: document.Chat,
			in: `{"messages":[{"role":"user","content":"2+2?"},{"role":"assistant","content":"5"}],"label":false}
{"messages":[{"role":"user","content":"2+2?"},{"role":"assistant","content":"4"}],"label":true}`,
			want:  []string{`{"messages":[{"role":"user","content":"2+2?"},{"role":"assistant","content":"4"}]}`},
			notes: []string{"1: a KTO record marked undesirable (label false): its answer is what the model should not say, and an OpenAI chat example trains on it as a positive one: no example written (--kto-negatives skip)"},
		},
		{
			name:   "KTO record marked undesirable, --kto-negatives error",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"2+2?"},{"role":"assistant","content":"5"}],"kto_tag":false}`,
			opts:   Options{KTONegatives: KTOError},
			notes:  []string{"!1: a KTO record marked undesirable (kto_tag false): its answer is what the model should not say, and an OpenAI chat example trains on it as a positive one: no example written (--kto-negatives error)"},
		},
		{
			name:   "LLaMA-Factory images placed at their <image> tokens",
			format: document.ShareGPT,
			in:     `{"conversations":[{"from":"human","value":"<image>What is in the picture?"},{"from":"gpt","value":"A cat."}],"images":["https://example.com/cat.png"]}`,
			want:   []string{`{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"https://example.com/cat.png"}},{"type":"text","text":"What is in the picture?"}]},{"role":"assistant","content":"A cat."}]}`},
		},
		{
			name:   "a local image path is written as given, with a note; images without tokens go in front of the first user message",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"Describe it."},{"role":"assistant","content":"A dog."}],"images":["img/dog.jpg"]}`,
			want:   []string{`{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"img/dog.jpg"}},{"type":"text","text":"Describe it."}]},{"role":"assistant","content":"A dog."}]}`},
			notes: []string{
				`1: image "img/dog.jpg" of message 0 is a local path; OpenAI takes an https or data: URL: written as given (upload the image, or embed it as a data: URL, before training)`,
				"1: 1 image(s) of the record have no <image> token in its messages: put in front of the text of the first user message",
			},
		},
		{
			name:   "image parts of a user message kept in order: OpenAI image_url, Anthropic base64, LLaMA-Factory value",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":[{"type":"text","text":"Compare"},{"type":"image_url","image_url":{"url":"https://example.com/a.png","detail":"low"}},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBO"}},{"type":"image_url","value":"https://example.com/c.png"}]},{"role":"assistant","content":"Same."}]}`,
			want:   []string{`{"messages":[{"role":"user","content":[{"type":"text","text":"Compare"},{"type":"image_url","image_url":{"url":"https://example.com/a.png","detail":"low"}},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBO"}},{"type":"image_url","image_url":{"url":"https://example.com/c.png"}}]},{"role":"assistant","content":"Same."}]}`},
		},
		{
			name:   "an image in an assistant message is noted and left out",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"Draw"},{"role":"assistant","content":[{"type":"text","text":"Here."},{"type":"image_url","image_url":{"url":"https://example.com/a.png"}}]}]}`,
			want:   []string{`{"messages":[{"role":"user","content":"Draw"},{"role":"assistant","content":"Here."}]}`},
			notes:  []string{"1: part 1 of message 1 is an image; OpenAI examples hold images in user messages only, not assistant messages: left out"},
		},
	} {
		t.Run(tt.name, tt.run)
	}
}

// TestConvertBatchJoin joins a Batch input's requests with the answers of
// its output by custom_id; either alone gives no example.
func TestConvertBatchJoin(t *testing.T) {
	outputs := documents(t, document.OpenAIBatchOutput, `{"id":"b1","custom_id":"r-2","response":{"status_code":200,"body":{"choices":[{"index":0,"message":{"role":"assistant","content":"4"},"finish_reason":"stop"}]}},"error":null}
{"id":"b2","custom_id":"r-1","response":{"status_code":500,"body":{}},"error":null}
{"id":"b3","custom_id":"r-9","response":{"status_code":200,"body":{"choices":[{"index":0,"message":{"role":"assistant","content":"?"}}]}},"error":null}`)
	answers := NewAnswers()
	var notes []string
	for _, d := range outputs {
		for _, n := range answers.Add(d) {
			notes = append(notes, itoa(n.Line)+": "+n.Message)
		}
	}
	if diff := cmp.Diff([]string{`2: the request "r-1" failed in the Batch output (status 500, or an error, or no message): it gives no example`}, notes); diff != "" {
		t.Errorf("output notes (-want +got):\n%s", diff)
	}
	in := `{"custom_id":"r-1","method":"POST","url":"/v1/chat/completions","body":{"messages":[{"role":"user","content":"1+1?"}]}}
{"custom_id":"r-2","method":"POST","url":"/v1/chat/completions","body":{"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"2+2?"}]}}`
	convertCase{
		format: document.OpenAIBatchInput, in: in, opts: Options{Answers: answers},
		want:  []string{`{"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"2+2?"},{"role":"assistant","content":"4"}]}`},
		notes: []string{`!1: the request "r-1" has no successful answer in the Batch output files: no example written`},
	}.run(t)
	if diff := cmp.Diff([]Unanswered{{File: "f.jsonl", Line: 3, CustomID: "r-9"}}, answers.Unused()); diff != "" {
		t.Errorf("unused answers (-want +got):\n%s", diff)
	}
	convertCase{
		format: document.OpenAIBatchInput, in: in,
		notes: []string{
			"!1: an OpenAI Batch input holds requests without their answers: give its Batch output file too (convert --to openai INPUT.jsonl OUTPUT.jsonl joins them by custom_id)",
			"!2: an OpenAI Batch input holds requests without their answers: give its Batch output file too (convert --to openai INPUT.jsonl OUTPUT.jsonl joins them by custom_id)",
		},
	}.run(t)
}
