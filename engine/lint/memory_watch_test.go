package lint

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/internal/denselines"
)

// TestRuleMemoryWatchesOPAOnly: the memory watchdog bounds what the Rego
// rules build, from OPA's start; what the YAML rules built before is not
// theirs. A record of tool calls under --profile openai (the built-in packs,
// a limit scaled down with the record: 48 MiB for 8 MiB, as 512 MiB for the
// 60 MiB of dense-lines' calls) was a policy-error, "rule (unknown) used
// more than ... of memory": the YAML rules went past the limit, and OPA,
// cancelled before its first rule, could name none. It is now checked.
func TestRuleMemoryWatchesOPAOnly(t *testing.T) {
	eng, err := policy.Compile(context.Background(), builtinCheckPacks(t), policy.Options{RuleMemory: 48 << 20})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := denselines.Write(&buf, "calls", 8<<20); err != nil {
		t.Fatal(err)
	}
	l := New(eng, document.Options{Profile: "openai"})
	u := Unit{File: "d.jsonl", Format: document.Chat, Records: []jsonl.Record{{Line: 1, Data: bytes.TrimSpace(buf.Bytes())}}}
	var rules []string
	for _, f := range l.Check(context.Background(), u) {
		if f.Rule == RulePolicyError || strings.Contains(f.Message, "(unknown)") {
			t.Errorf("%s: %s", f.Rule, f.Message)
		}
		rules = append(rules, f.Rule)
	}
	if len(rules) == 0 {
		t.Errorf("no findings; want tools-shape's")
	}
}
