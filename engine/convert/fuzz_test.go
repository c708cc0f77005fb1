package convert

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chatlint/chatlint/engine/jsonv"
)

// FuzzParseSession feeds arbitrary bytes to the session parser and runs
// what follows on whatever it accepts (the goose cleanup, validation,
// squashing, the inline rewrite, usage counts, anonymisation, output): no
// input may panic, every line is accounted for, and the output line is JSON.
func FuzzParseSession(f *testing.F) {
	f.Add([]byte(`{"timestamp": "2024-01-01T10:00:00Z", "session_id": "s", "request": {"model": "m", "messages": [{"role": "user", "content": "a@b.cc"}], "tools": [{"function": {"name": "t"}}]}, "response": {"id": "r", "choices": [{"index": 0, "message": {"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "t", "arguments": "{\"x\": 1.50}"}}]}}]}}` + "\n"))
	f.Add([]byte("{\"timestamp\": 1, \"session_id\": \"s\", \"request\": {\"model\": \"m\", \"messages\": [{\"role\": \"tool\", \"tool_call_id\": \"c\", \"content\": [{\"type\": \"text\", \"text\": \"x\"}]}]}}\r\n\r{bad\n"))
	f.Add([]byte(`{"timestamp": 1, "session_id": "s", "request": {"model": "m", "messages": [{"role": "system", "content": "general-purpose AI agent called goose", "t": NaN}, {"role": "user", "content": "<info-msg>x</info-msg>"}, {"role": "assistant", "content": ""}, {"role": "assistant", "content": "a"}]}}` + "\n"))
	f.Add([]byte("\xff\xfe\n[1]\n\"x\"\n{\"a\":1,\"a\":2}"))
	f.Fuzz(fuzzSession)
}

func fuzzSession(t *testing.T, data []byte) {
	{
		entries, skipped := parseSession(data)
		for i, e := range entries {
			if e.Line < 1 {
				t.Fatalf("entry line %d", e.Line)
			}
			// What the rules are given reads back as the entry itself.
			msgs := make([]jsonv.Value, len(e.Messages))
			for i, m := range e.Messages {
				msgs[i] = m
			}
			back, err := decodePython(ruleJSON(msgs))
			if err != nil {
				t.Fatal(err)
			}
			if _, same := restoreList(msgs, back.([]jsonv.Value)); slices.Contains(same, false) {
				t.Fatalf("entry %d does not read back from its rule form", e.Line)
			}
			c, drop, err := fuzzCleaner(t).clean(context.Background(), e, "f")
			if err != nil {
				t.Fatal(err)
			}
			if !drop {
				entries[i] = c
			}
		}
		for _, s := range skipped {
			if s.Line < 1 || s.Reason == "" {
				t.Fatalf("skipped %+v", s)
			}
		}
		if len(entries) == 0 {
			return
		}
		kept, _, err := validateSession(entries, "f")
		if err != nil {
			return
		}
		raw := squash(kept)
		countUsage(raw, "", "")
		written := &Record{Messages: inlineToolCalls(raw.Messages), Tools: raw.Tools}
		v := written.Value()
		newAnonymizer(nil).scrub(v)
		if _, err := jsonv.Decode(jsonv.Marshal(v, jsonv.Python)); err != nil {
			// Python's Infinity is not JSON; anything else is a bug.
			if !containsInfinity(v) {
				t.Fatalf("output is not JSON: %v", err)
			}
		}
		_ = roleTrace(kept[0].Messages)
	}
}

var fuzzEngines = sync.OnceValues(func() (cleanupEngines, error) {
	return newCleanupEngines(context.Background(), &Options{CleanupGoose: true})
})

// fuzzCleaner returns a goose cleaner (the pack is compiled once).
func fuzzCleaner(t *testing.T) *cleaner {
	engs, err := fuzzEngines()
	if err != nil {
		t.Fatal(err)
	}
	return engs.cleaner()
}

func containsInfinity(v jsonv.Value) bool {
	s := string(jsonv.Marshal(v, jsonv.Compact))
	return strings.Contains(s, "Infinity") || strings.Contains(s, "NaN")
}
