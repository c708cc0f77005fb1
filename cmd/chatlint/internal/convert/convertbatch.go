package convert

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/openai"
	"github.com/chatlint/chatlint/engine/runner"
)

// peekFormat names the format of a file from its leading records, as the
// runner detects it ("" when none claims it, or for a stream, which cannot
// be read twice).
func peekFormat(in runner.Input, forced document.Format, maxValues int) document.Format {
	if forced != "" {
		return forced
	}
	if in.Path == "" || strings.HasSuffix(strings.ToLower(in.Path), ".json") {
		return ""
	}
	f, err := os.Open(in.Path)
	if err != nil {
		return "" // the run reports it
	}
	defer f.Close()
	r := jsonl.NewReader(f)
	for range lint.DetectWindow {
		rec, err := r.Next()
		if err != nil {
			return ""
		}
		if format, _, _, ok := lint.DetectMax(in.Name, rec, maxValues); ok {
			return format
		}
	}
	return ""
}

// splitBatchOutputs takes the OpenAI Batch output files out of the inputs:
// they are read first, for their answers, which the requests of the Batch
// input files are then joined with (openai.Answers). A Batch output given
// without any Batch input is refused: it holds only answers.
func splitBatchOutputs(inputs []runner.Input, forced document.Format, maxValues int) (outputs, rest []runner.Input, err error) {
	requests := false
	for _, in := range inputs {
		switch peekFormat(in, forced, maxValues) {
		case document.OpenAIBatchOutput:
			outputs = append(outputs, in)
			continue
		case document.OpenAIBatchInput:
			requests = true
		case "":
			requests = requests || in.Path == "" // a stream may hold them
		}
		rest = append(rest, in)
	}
	if len(outputs) > 0 && !requests {
		return nil, nil, cmdutil.UsageError("%s: an OpenAI Batch output holds the answers without the requests they answer, so it gives no example alone: give its Batch input file too (convert --to openai INPUT.jsonl OUTPUT.jsonl), which is joined with it by custom_id", outputs[0].Name)
	}
	return outputs, rest, nil
}

// readAnswers reads the Batch output files into answers; its notes (failed
// requests, reused custom_ids) go to notes.
func readAnswers(ctx context.Context, r *runner.Runner, outputs []runner.Input, notes func(convertedJob)) (*openai.Answers, []error) {
	answers := openai.NewAnswers()
	_, errs := runner.Each(ctx, r, outputs, func() func(runner.Job) convertedJob {
		return func(j runner.Job) convertedJob {
			var c convertedJob
			if j.Finding != nil {
				c.add(*j.Finding)
				return c
			}
			bad := lint.Documents(j.Unit, r.Opts.Document, func(d *document.Document, _ *jsonl.Record) {
				for _, n := range answers.Add(d) {
					c.add(finding.Finding{File: d.File, Line: n.Line, Severity: finding.Warning, Rule: ruleConvertLossy, Message: n.Message})
				}
			})
			for _, f := range bad {
				c.add(f)
			}
			return c
		}
	}, notes)
	return answers, errs
}

// unusedAnswers are the notes on the answers no request took.
func unusedAnswers(a *openai.Answers) convertedJob {
	var c convertedJob
	for _, u := range a.Unused() {
		c.add(finding.Finding{File: u.File, Line: u.Line, Severity: finding.Warning, Rule: ruleConvertLossy,
			Message: fmt.Sprintf("the answer to custom_id %q has no request in the Batch input files: left out", u.CustomID)})
	}
	return c
}
