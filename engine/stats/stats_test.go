package stats

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/runner"
)

// independentCount counts a file of plain chat examples as the OpenAI
// cookbook's num_tokens_from_messages does, straight from the JSON with
// the tokenizer: 3 per message, the tokens of each string value (a list
// content's text parts joined by newlines), +1 for a name, 3 per example.
func independentCount(t *testing.T, path string, enc tokenizer.Encoding) (examples int, total int64) {
	t.Helper()
	codec, err := tokenizer.Get(enc)
	if err != nil {
		t.Fatal(err)
	}
	count := func(s string) int64 {
		n, err := codec.Count(s)
		if err != nil {
			t.Fatal(err)
		}
		return int64(n)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var rec struct {
			Messages []map[string]any `json:"messages"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		examples++
		total += 3
		for _, m := range rec.Messages {
			total += 3
			for k, v := range m {
				switch v := v.(type) {
				case string:
					total += count(v)
				case []any:
					var parts []string
					for _, p := range v {
						parts = append(parts, p.(map[string]any)["text"].(string))
					}
					total += count(strings.Join(parts, "\n"))
				}
				if k == "name" {
					total++
				}
			}
		}
	}
	return examples, total
}

func TestTotalsEqualIndependentCount(t *testing.T) {
	files := []string{filepath.Join("..", "..", "fixtures", "finetune", "stats.jsonl")}
	if toy := filepath.Join("..", "..", "..", "shared", "data", "openai-finetune", "cookbook-toy-chat-fine-tuning.jsonl"); fileExists(toy) {
		files = append(files, toy)
	}
	for _, enc := range []string{"o200k_base", "cl100k_base"} {
		var inputs []runner.Input
		var wantExamples int
		var wantTotal int64
		for _, f := range files {
			inputs = append(inputs, runner.Input{Name: f, Path: f})
			n, tot := independentCount(t, f, tokenizer.Encoding(enc))
			wantExamples += n
			wantTotal += tot
		}
		model := &document.Model{Name: "m", Encoding: enc, Limit: 100, PricePerMillion: 2}
		res, errs, err := Compute(context.Background(), &runner.Runner{Opts: runner.Options{Workers: 2}}, inputs, Options{Model: model, Epochs: 3})
		if err != nil || len(errs) > 0 {
			t.Fatal(err, errs)
		}
		if res.Total.Records != wantExamples || res.Total.Tokens.Total != wantTotal {
			t.Errorf("%s: %d examples, %d tokens; the independent count has %d, %d", enc, res.Total.Records, res.Total.Tokens.Total, wantExamples, wantTotal)
		}
		var billed int64
		for _, f := range res.Files {
			billed += f.BilledTokens
		}
		if res.Total.BilledTokens != billed || billed == 0 || res.Total.Cost != float64(billed)/1e6*2 {
			t.Errorf("%s: billed %d, cost %v; the files bill %d", enc, res.Total.BilledTokens, res.Total.Cost, billed)
		}
	}
}

func TestStatsFixture(t *testing.T) {
	f := filepath.Join("..", "..", "fixtures", "finetune", "stats.jsonl")
	model := &document.Model{Name: "m", Encoding: "o200k_base", Limit: 20, PricePerMillion: 1}
	res, _, err := Compute(context.Background(), &runner.Runner{}, []runner.Input{{Name: f, Path: f}}, Options{Model: model})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Files[0]
	if got.Records != 3 || got.Messages["assistant"] != 4 || got.Messages["user"] != 4 || got.Messages["system"] != 1 {
		t.Errorf("records %d, messages %v", got.Records, got.Messages)
	}
	if got.Epochs != 25 { // 3 examples: 100/3 = 33 epochs, at most 25
		t.Errorf("epochs %d, want 25", got.Epochs)
	}
	if !(got.Tokens.Min <= got.Tokens.Median && got.Tokens.Median <= got.Tokens.P95 && got.Tokens.P95 <= got.Tokens.Max) || got.Tokens.Max == 0 {
		t.Errorf("tokens %+v", got.Tokens)
	}
	if got.OverLimit == 0 && got.Tokens.Max > 20 {
		t.Errorf("an example of %d tokens is not over the limit of 20", got.Tokens.Max)
	}
}

func TestDefaultEpochs(t *testing.T) {
	for n, want := range map[int]int{1: 25, 3: 25, 10: 10, 33: 3, 34: 3, 100: 3, 8333: 3, 8334: 2, 30000: 1, 0: 0} {
		if got := DefaultEpochs(n); got != want {
			t.Errorf("DefaultEpochs(%d) = %d, want %d", n, got, want)
		}
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
