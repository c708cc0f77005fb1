package main

import (
	"strings"
	"testing"
	"time"
)

// TestTokenCountingBounded: a 10 MB single-word message took 12-26 s under
// --rule-timeout 1s, in `check --profile openai` (the dataset fold counts
// tokens before the rules run) and in `stats`, since the tokenizer cannot be
// interrupted. Counting now tokenizes the first 256 KiB of an example and
// estimates the rest, so both finish in a bounded time.
func TestTokenCountingBounded(t *testing.T) {
	f := writeFile(t, t.TempDir(), "big.jsonl",
		`{"messages":[{"role":"user","content":"`+strings.Repeat("a", 10<<20)+`"},{"role":"assistant","content":"ok"}]}`+"\n")
	for _, args := range [][]string{
		{"check", "--profile", "openai", "--rule-timeout", "1s", f},
		{"stats", f},
	} {
		start := time.Now()
		out, errOut, _ := chatlint(t, "", args...)
		if took := time.Since(start); took > 8*time.Second {
			t.Errorf("%s took %v", args[0], took)
		}
		if strings.Contains(out+errOut, "policy-error") {
			t.Errorf("%s: a record was not checked:\n%s%s", args[0], out, errOut)
		}
	}
}
