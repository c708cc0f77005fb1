package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenAILookupGatesKeepFindings: the openai profile's rules on the
// messages as given look at the lookup's message_keys and
// content_not_string before they visit messages, so that a document without
// an unknown key, a weight, a function_call or a content that is not a
// string costs no walk over its messages, and openai-function-name tests a
// name before it spells out where the name is. The finetune pack with those
// gates and tests taken out (its rules as they were) must report exactly the
// same findings under the openai profile, on every rule fixture and the
// shared data.
func TestOpenAILookupGatesKeepFindings(t *testing.T) {
	dir := t.TempDir()
	files, err := filepath.Glob("../../policies/finetune/*")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "../../rules/finetune/finetune.yaml")
	for _, f := range files {
		if st, err := os.Stat(f); err != nil || st.IsDir() || strings.HasSuffix(f, "_test.rego") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(f) == "openai.rego" {
			b = []byte(ungated(t, string(b)))
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	equivalence{
		pack:     "finetune",
		before:   dir,
		profiles: []string{"openai"},
		check: func(t *testing.T, name, profile string, now []jsonFinding) {
			if name != "fixtures" {
				return
			}
			counts := ruleCounts(now, false)
			for _, r := range []string{"openai-message-keys", "openai-content-type", "openai-weight", "openai-function-name"} {
				if counts[r] == 0 {
					t.Errorf("fixtures: no %s finding: the comparison proves nothing for it", r)
				}
			}
		},
	}.run(t)
}

// ungated is openai.rego with the lookup gates taken out.
func ungated(t *testing.T, src string) string {
	t.Helper()
	var out []string
	gates, names := 0, 0
	for _, line := range strings.Split(src, "\n") {
		switch {
		case strings.Contains(line, "input.lookup.message_keys"):
			gates++
			continue
		case strings.Contains(line, "not openai_name_ok("):
			names++
			continue
		case strings.Contains(line, "some i in input.lookup.content_not_string"):
			gates++
			line = "\tsome m in input.messages"
		case strings.TrimSpace(line) == "m := input.messages[i]" && gates > 0 && strings.HasSuffix(out[len(out)-1], "some m in input.messages"):
			continue
		}
		out = append(out, line)
	}
	if gates != 4 || names != 4 {
		t.Fatalf("openai.rego: %d lookup gates and %d name tests found, want 4 and 4: update the test with the rules", gates, names)
	}
	return strings.Join(out, "\n")
}
