// Package stats computes the statistics of fine-tuning datasets: per file
// and in total, records, messages per role, tool calls per tool, tokens per
// example (min, median, p95, max, total), examples over the model's limit,
// the tokens a training run bills for N epochs and its estimated cost. It
// reads through the same runner and format adapters as check, so every
// input format is counted the same way (tokens as package tokens counts
// them).
//
// Memory: records stream; per file and for the total the token count of
// every example is kept (4 bytes an example, 8 in all) so the median and
// p95 are exact: 10 million examples take 80 MB.
package stats

import (
	"context"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/runner"
	"github.com/chatlint/chatlint/engine/tokens"
)

// Options configure a computation.
type Options struct {
	// Model gives the encoding, the per-example limit and the price.
	Model *document.Model
	// Epochs is the number of training epochs; 0 means the platform's
	// default choice for the file's size (DefaultEpochs).
	Epochs int
}

// Tokens summarizes the tokens per example.
type Tokens struct {
	Min    int   `json:"min"`
	Median int   `json:"median"`
	P95    int   `json:"p95"`
	Max    int   `json:"max"`
	Total  int64 `json:"total"`
}

// File is the statistics of one input, or of all of them (Result.Total).
type File struct {
	File string `json:"file"`
	// Format is the input format ("" for the total, or a file in none).
	Format string `json:"format,omitempty"`
	// Records is the number of examples (documents) counted; Skipped the
	// lines that could not be read as records (not JSON, too long).
	Records int `json:"records"`
	Skipped int `json:"skipped"`
	// Messages counts the messages per role, ToolCalls the calls per tool.
	Messages  map[string]int `json:"messages"`
	ToolCalls map[string]int `json:"tool_calls"`
	Tokens    Tokens         `json:"tokens"`
	// Kinds counts the examples by what they train: "chat", "preference"
	// (a prompt with a chosen and a rejected answer), "kto-desirable" and
	// "kto-undesirable" (a KTO record's label).
	Kinds map[string]int `json:"kinds"`
	// Untrained counts the assistant messages a weight of 0 keeps out of
	// training; Images the images of the examples (image parts of the
	// messages, and a record's own images list).
	Untrained int `json:"untrained_messages"`
	Images    int `json:"images"`
	// OverLimit counts the examples with more tokens than the model's limit.
	OverLimit int `json:"over_limit"`
	// Epochs is the number of epochs billed (given, or the default for the
	// file's size); 0 for the total when --epochs is not given.
	Epochs int `json:"epochs"`
	// BilledTokens is the tokens of every example, each cut at the limit,
	// times the epochs; Cost is their price in USD.
	BilledTokens int64   `json:"billed_tokens"`
	Cost         float64 `json:"cost_usd"`
	// Unrecognized, set on a file no format claims, is check's finding
	// on it (unrecognized-format): nothing of the file was counted.
	Unrecognized *finding.Finding `json:"unrecognized,omitempty"`
	// TooDense are check's findings on the records over the bound on
	// values (record-too-dense): they were not counted, only skipped.
	TooDense []finding.Finding `json:"-"`

	counts []int32
}

// Result is the statistics of a run.
type Result struct {
	Model           string  `json:"model"`
	Encoding        string  `json:"encoding"`
	Limit           int     `json:"limit"`
	PricePerMillion float64 `json:"price_per_million"`
	Files           []File  `json:"files"`
	Total           File    `json:"total"`
	// Histogram is the tokens per example of every file, in
	// HistogramBuckets buckets of equal width from 0 to the largest example.
	Histogram []Bucket `json:"histogram"`
}

// Bucket counts the examples with Lo <= tokens < Hi.
type Bucket struct {
	Lo    int `json:"lo"`
	Hi    int `json:"hi"`
	Count int `json:"count"`
}

// HistogramBuckets is the number of bars of Result.Histogram.
const HistogramBuckets = 24

// histogram buckets sorted token counts.
func histogram(sorted []int32) []Bucket {
	if len(sorted) == 0 {
		return []Bucket{}
	}
	top := int(sorted[len(sorted)-1]) + 1
	width := max(1, (top+HistogramBuckets-1)/HistogramBuckets)
	out := make([]Bucket, 0, HistogramBuckets)
	for lo := 0; lo < top; lo += width {
		out = append(out, Bucket{Lo: lo, Hi: lo + width})
	}
	for _, c := range sorted {
		out[int(c)/width].Count++
	}
	return out
}

// example is what a worker keeps of one document.
type example struct {
	tokens    int
	roles     []string
	toolCalls []string
	kind      string
	untrained int
	images    int
}

type unitStats struct {
	file         string
	format       document.Format
	examples     []example
	skipped      int
	end          bool
	unrecognized *finding.Finding
	tooDense     []finding.Finding
}

// Compute reads the inputs with r (its options: format, workers, line size;
// its Progress for a display) and returns their statistics. Inputs that
// cannot be read are returned as errors after the rest was counted.
func Compute(ctx context.Context, r *runner.Runner, inputs []runner.Input, o Options) (*Result, []error, error) {
	m := o.Model
	counter, err := tokens.NewCounter(m.Encoding)
	if err != nil {
		return nil, nil, err
	}
	res := &Result{Model: m.Name, Encoding: m.Encoding, Limit: m.Limit, PricePerMillion: m.PricePerMillion}
	res.Total = newFile("")
	work := func() func(runner.Job) unitStats {
		return func(j runner.Job) unitStats {
			u := unitStats{file: j.File, format: j.Format, end: j.End}
			if j.Finding != nil {
				if u.file == "" {
					u.file = j.Finding.File
				}
				if j.Finding.Rule == lint.RuleUnrecognized {
					f := *j.Finding
					u.unrecognized = &f
				}
				u.skipped++
				return u
			}
			if len(j.Records) == 0 {
				return u
			}
			if j.Format == "" {
				// Not counted; but a record detection stopped reading
				// for its values is reported, as check reports it.
				u.tooDense = tooDense(lint.Documents(j.Unit, r.Opts.Document, func(*document.Document, *jsonl.Record) {}))
				u.skipped += len(u.tooDense)
				return u
			}
			// Read as check reads: the same decoding, fit test and builder;
			// nothing reads a session's lines once decoded.
			j.Unit.Release = true
			bad := lint.Documents(j.Unit, docOptions(r.Opts.Document, j.Format), func(d *document.Document, _ *jsonl.Record) {
				u.examples = append(u.examples, describe(counter, d))
			})
			u.skipped += len(bad)
			u.tooDense = tooDense(bad)
			return u
		}
	}
	var cur *File
	_, errs := runner.Each(ctx, r, inputs, work, func(u unitStats) {
		if cur == nil {
			f := newFile(u.file)
			cur = &f
		}
		if cur.File == "" {
			cur.File = u.file
		}
		if u.unrecognized != nil {
			cur.Unrecognized = u.unrecognized
		}
		cur.TooDense = append(cur.TooDense, u.tooDense...)
		if cur.Format == "" && u.format != "" {
			cur.Format = string(u.format)
		}
		cur.Skipped += u.skipped
		res.Total.Skipped += u.skipped
		for _, e := range u.examples {
			cur.add(e, m.Limit)
			res.Total.add(e, m.Limit)
		}
		if u.end {
			cur.finish(m, o.Epochs)
			res.Files = append(res.Files, *cur)
			cur = nil
		}
	})
	slices.Sort(res.Total.counts)
	res.Histogram = histogram(res.Total.counts)
	res.Total.summarize()
	for _, f := range res.Files {
		res.Total.BilledTokens += f.BilledTokens
		res.Total.Cost += f.Cost
	}
	res.Total.Epochs = o.Epochs
	return res, errs, nil
}

func newFile(name string) File {
	return File{File: name, Messages: map[string]int{}, ToolCalls: map[string]int{}, Kinds: map[string]int{}}
}

// describe reads the document as built: a session's messages and lines
// may be views (sessionFields), which answer every lookup stats makes, and
// building them as OPA objects (Materialized, Messages) held a second copy
// of a long session.
func describe(c *tokens.Counter, d *document.Document) example {
	doc := d.Value
	e := example{tokens: c.Document(doc), kind: kind(doc)}
	e.add(d.MessageList())
	for _, ans := range answers(d, doc) {
		e.tokens += c.Document(ast.NewObject(ast.Item(ast.StringTerm("messages"), ast.NewTerm(ans)))) - tokens.Priming
		e.add(ans)
	}
	e.images += recordImages(doc)
	return e
}

// add counts a list of normalized messages.
func (e *example) add(ms *ast.Array) {
	for i := 0; ms != nil && i < ms.Len(); i++ {
		m, ok := ms.Elem(i).Value.(ast.Object)
		if !ok {
			continue
		}
		role := str(m, "role")
		e.roles = append(e.roles, role)
		e.toolCalls = append(e.toolCalls, callNames(m)...)
		raw, _ := field(m, "raw").(ast.Object)
		if role == "assistant" && isZero(raw, "weight") {
			e.untrained++
		}
		e.images += imageParts(raw)
	}
}

func (f *File) add(e example, limit int) {
	f.Records++
	for _, r := range e.roles {
		f.Messages[r]++
	}
	for _, t := range e.toolCalls {
		f.ToolCalls[t]++
	}
	f.Kinds[e.kind]++
	f.Untrained += e.untrained
	f.Images += e.images
	f.counts = append(f.counts, int32(e.tokens))
	f.Tokens.Total += int64(e.tokens)
	if e.tokens > limit {
		f.OverLimit++
	}
}

// summarize computes the distribution of the token counts and frees them.
func (f *File) summarize() {
	if len(f.counts) == 0 {
		return
	}
	slices.Sort(f.counts)
	n := len(f.counts)
	f.Tokens.Min, f.Tokens.Max = int(f.counts[0]), int(f.counts[n-1])
	f.Tokens.Median = int(f.counts[(n-1)/2])
	f.Tokens.P95 = int(f.counts[rank(n, 95)])
	f.counts = nil
}

// rank is the index of the p-th percentile of n sorted values (nearest
// rank).
func rank(n, p int) int {
	k := (n*p + 99) / 100
	if k < 1 {
		k = 1
	}
	return k - 1
}

func (f *File) finish(m *document.Model, epochs int) {
	var billable int64
	for _, c := range f.counts {
		billable += int64(min(int(c), m.Limit))
	}
	f.summarize()
	if epochs <= 0 {
		epochs = DefaultEpochs(f.Records)
	}
	f.Epochs = epochs
	f.BilledTokens = billable * int64(epochs)
	f.Cost = float64(f.BilledTokens) / 1e6 * m.PricePerMillion
}

// DefaultEpochs is the number of epochs OpenAI's fine-tuning chooses when
// none is given, as its data-preparation notebook states it: 3, raised so
// that a small file is seen about 100 times in all (at most 25 epochs),
// lowered so that a large one is seen about 25,000 times (at least 1).
func DefaultEpochs(examples int) int {
	const target, minExamples, maxExamples, minEpochs, maxEpochs = 3, 100, 25000, 1, 25
	if examples <= 0 {
		return 0
	}
	switch {
	case examples*target < minExamples:
		return min(maxEpochs, minExamples/examples)
	case examples*target > maxExamples:
		return max(minEpochs, maxExamples/examples)
	}
	return target
}

func str(o ast.Object, k string) string {
	if t := o.Get(keyTerm(k)); t != nil {
		if s, ok := t.Value.(ast.String); ok {
			return string(s)
		}
	}
	return ""
}

// callNames are the names of a normalized message's tool calls.
func callNames(m ast.Object) []string {
	t := m.Get(keyTerm("tool_calls"))
	if t == nil {
		return nil
	}
	arr, ok := t.Value.(*ast.Array)
	if !ok {
		return nil
	}
	out := make([]string, 0, arr.Len())
	for i := 0; i < arr.Len(); i++ {
		if c, ok := arr.Elem(i).Value.(ast.Object); ok {
			out = append(out, str(c, "name"))
		}
	}
	return out
}

// tooDense are the record-too-dense findings among fs.
func tooDense(fs []finding.Finding) []finding.Finding {
	var out []finding.Finding
	for _, f := range fs {
		if f.Rule == lint.RuleTooDense {
			out = append(out, f)
		}
	}
	return out
}
