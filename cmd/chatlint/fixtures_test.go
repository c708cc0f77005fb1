package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestFixtures is the "done when" case: a team pack with one passing
// and one failing fixture, per-case results, coverage lines and exit 1.
func TestTestFixtures(t *testing.T) {
	pack := teamPackCopy(t)
	os.Mkdir(filepath.Join(pack, "tests"), 0o755)
	writeFile(t, pack, "tests/empty.jsonl", emptyTurn+"\n")
	writeFile(t, pack, "tests/empty.expected.json", `[{"rule": "no-empty-assistant", "severity": "warning", "line": 1, "message_index": 1}]`)
	writeFile(t, pack, "tests/wrong.jsonl", cleanRecord+"\n"+emptyTurn+"\n")
	writeFile(t, pack, "tests/wrong.expected.json", `[{"rule": "no-empty-assistant", "severity": "warning", "line": 1, "message_index": 1}]`)
	writeFile(t, pack, "tests/orphan.jsonl", cleanRecord+"\n")

	out, errOut, code := chatlint(t, "", "test", pack)
	if code != 1 {
		t.Errorf("exit %d, want 1\n%s", code, errOut)
	}
	for _, want := range []string{
		"tests/empty.jsonl: PASS fixture\n",
		"tests/wrong.jsonl: FAIL fixture\n    missing:    line 1: warning no-empty-assistant (message 1)\n    unexpected: line 2: warning no-empty-assistant (message 1)\n",
		"tests/orphan.jsonl: ERROR fixture: no orphan.expected.json beside it",
		"coverage team: no-empty-assistant: 2 fixture(s)\n",
		"coverage team: system-prompt-first: no fixture triggers it\n",
		"1 passed, 2 failed\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Only the named pack is tested: nothing of the built-in pack shows.
	if strings.Contains(out, "integrity") {
		t.Errorf("tested packs that were not named:\n%s", out)
	}
}

// TestBuiltinPacksPassChatlintTest runs `chatlint test` on the built-in
// packs the way CI does: every Rego test and fixture passes and every rule
// has a fixture.
func TestBuiltinPacksPassChatlintTest(t *testing.T) {
	out, errOut, code := chatlint(t, "", "test", "--no-config")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if strings.Contains(out, "no fixture triggers it") || !strings.Contains(out, "PASS fixture") {
		t.Errorf("built-in rules without fixtures:\n%s", out)
	}
}

// TestTestFolderFixtures: a fixture folder is about one rule; other rules'
// findings on its data do not count, a profile file sets the profile, and a
// good.jsonl that triggers the rule fails.
func TestTestFolderFixtures(t *testing.T) {
	pack := teamPackCopy(t)
	os.MkdirAll(filepath.Join(pack, "tests/no-empty-assistant"), 0o755)
	os.MkdirAll(filepath.Join(pack, "tests/no-empty-assistant--bad-good"), 0o755)
	writeFile(t, pack, "tests/no-empty-assistant/bad.jsonl", emptyTurn+"\n")
	writeFile(t, pack, "tests/no-empty-assistant/expected.json", `[{"rule": "no-empty-assistant", "severity": "warning", "line": 1, "message_index": 1}]`)
	writeFile(t, pack, "tests/no-empty-assistant/good.jsonl", cleanRecord+"\n")
	writeFile(t, pack, "tests/no-empty-assistant/profile", "default\n")
	writeFile(t, pack, "tests/no-empty-assistant--bad-good/bad.jsonl", emptyTurn+"\n")
	writeFile(t, pack, "tests/no-empty-assistant--bad-good/expected.json", `[{"rule": "no-empty-assistant", "severity": "warning", "line": 1, "message_index": 1}]`)
	writeFile(t, pack, "tests/no-empty-assistant--bad-good/good.jsonl", emptyTurn+"\n")

	out, errOut, code := chatlint(t, "", "test", pack)
	if code != 1 {
		t.Errorf("exit %d, want 1\n%s", code, errOut)
	}
	for _, want := range []string{
		"tests/no-empty-assistant/bad.jsonl: PASS fixture\n",
		"tests/no-empty-assistant/good.jsonl: PASS fixture\n",
		"tests/no-empty-assistant--bad-good/bad.jsonl: PASS fixture\n",
		"tests/no-empty-assistant--bad-good/good.jsonl: FAIL fixture\n    unexpected: line 1: warning no-empty-assistant (message 1)\n",
		"3 passed, 1 failed\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// teamPackCopy copies the example team pack (its rules, no tests) to a new
// folder, for tests that add fixtures to it.
func teamPackCopy(t *testing.T) string {
	t.Helper()
	pack := t.TempDir()
	team := filepath.Join(repo, "fixtures/packs/team")
	for _, n := range []string{"no_empty_assistant.rego", "shapes.yaml", "pack.yaml"} {
		src, err := os.ReadFile(filepath.Join(team, n))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, pack, n, string(src))
	}
	return pack
}
