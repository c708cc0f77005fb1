package openai

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
)

// Answers are the answers of OpenAI Batch output files, by custom_id: what
// a distillation run produced for the requests of its input file. Convert
// joins each request of a Batch input with its answer into one example.
// A Batch output alone holds only the answers, and a Batch input alone
// only the prompts: neither is an example. The answers are held in memory
// (the output files are read before the inputs), one message per request.
// Safe for use by several workers.
type Answers struct {
	mu   sync.Mutex
	byID map[string]*answer
}

type answer struct {
	file    string
	line    int
	message map[string]any
	finish  string
	choices int
	used    bool
}

// NewAnswers returns an empty set of answers.
func NewAnswers() *Answers { return &Answers{byID: map[string]*answer{}} }

// Len is the number of answers held.
func (a *Answers) Len() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.byID)
}

// Add reads one document of a Batch output file: a successful answer is
// kept under its custom_id; a failed line or a custom_id seen before gives
// a note instead.
func (a *Answers) Add(d *document.Document) []Note {
	v, err := ast.JSON(d.Materialized())
	doc, _ := v.(map[string]any)
	raw, _ := doc["raw"].(map[string]any)
	id, _ := raw["custom_id"].(string)
	if err != nil || raw == nil || id == "" {
		return []Note{{Line: d.Line, Message: "the Batch output line has no custom_id: left out"}}
	}
	resp, _ := raw["response"].(map[string]any)
	body, _ := resp["body"].(map[string]any)
	choices, _ := body["choices"].([]any)
	status := num(resp["status_code"])
	var msg map[string]any
	finish := ""
	if len(choices) > 0 {
		c0, _ := choices[0].(map[string]any)
		msg, _ = c0["message"].(map[string]any)
		finish, _ = c0["finish_reason"].(string)
	}
	if raw["error"] != nil || status < 200 || status > 299 || msg == nil {
		return []Note{{Line: d.Line, Message: fmt.Sprintf("the request %q failed in the Batch output (status %d, or an error, or no message): it gives no example", id, status)}}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if prev, ok := a.byID[id]; ok {
		return []Note{{Line: d.Line, Message: fmt.Sprintf("custom_id %q was answered before (%s:%d): this answer is left out", id, prev.file, prev.line)}}
	}
	a.byID[id] = &answer{file: d.File, line: d.Line, message: msg, finish: finish, choices: len(choices)}
	return nil
}

// take returns the answer to custom_id, marking it used.
func (a *Answers) take(id string) *answer {
	a.mu.Lock()
	defer a.mu.Unlock()
	ans := a.byID[id]
	if ans != nil {
		ans.used = true
	}
	return ans
}

// Unanswered is an answer no request of the inputs asked for.
type Unanswered struct {
	File     string
	Line     int
	CustomID string
}

// Unused lists the answers no request took, in file and line order.
func (a *Answers) Unused() []Unanswered {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []Unanswered
	for id, ans := range a.byID {
		if !ans.used {
			out = append(out, Unanswered{File: ans.file, Line: ans.line, CustomID: id})
		}
	}
	slices.SortFunc(out, func(x, y Unanswered) int {
		if x.File != y.File {
			if x.File < y.File {
				return -1
			}
			return 1
		}
		return x.Line - y.Line
	})
	return out
}

// joined converts a Batch input's request with its answer: the request's
// body with the answer appended to its messages, read as a chat record.
func (c *converter) joined(d *document.Document, raw map[string]any) ([]Example, []Note) {
	if c.opts.Answers == nil {
		return nil, []Note{{Line: d.Line, Error: true, Message: "an OpenAI Batch input holds requests without their answers: give its Batch output file too (convert --to openai INPUT.jsonl OUTPUT.jsonl joins them by custom_id)"}}
	}
	if d.Format == document.OpenAIBatchOutput {
		return nil, []Note{{Line: d.Line, Error: true, Message: "an OpenAI Batch output holds answers without their requests: give its Batch input file too (convert --to openai INPUT.jsonl OUTPUT.jsonl)"}}
	}
	id, _ := raw["custom_id"].(string)
	ans := c.opts.Answers.take(id)
	if ans == nil {
		return nil, []Note{{Line: d.Line, Error: true, Message: fmt.Sprintf("the request %q has no successful answer in the Batch output files: no example written", id)}}
	}
	body, _ := raw["body"].(map[string]any)
	msgs, _ := body["messages"].([]any)
	rec := map[string]any{"messages": append(slices.Clip(msgs), ans.message)}
	if t, ok := body["tools"]; ok {
		rec["tools"] = t
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return nil, []Note{{Line: d.Line, Error: true, Message: "the request and its answer could not be joined: " + err.Error()}}
	}
	v, err := astjson.Decode(b)
	obj, _ := v.(ast.Object)
	if err != nil || obj == nil {
		return nil, []Note{{Line: d.Line, Error: true, Message: "the request and its answer could not be joined"}}
	}
	opts := c.opts
	opts.Answers = nil
	jd := document.NewBuilder(document.Chat, d.File, document.Options{}).Add(d.Line, obj)
	exs, notes := Convert(jd, opts)
	if ans.finish == "length" {
		notes = append(notes, Note{Line: d.Line, Message: fmt.Sprintf("the answer to %q (%s:%d) was cut at the request's token limit (finish_reason length): written as is", id, ans.file, ans.line)})
	}
	if ans.choices > 1 {
		notes = append(notes, Note{Line: d.Line, Message: fmt.Sprintf("the answer to %q has %d choices: the first is written", id, ans.choices)})
	}
	return exs, notes
}
