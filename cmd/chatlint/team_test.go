package main

import (
	"encoding/xml"
	"os"
	"strings"
	"testing"
)

// TestTeamAdoption walks the path a new team takes, all through the CLI:
// a .chatlint.yaml with its own pack and two overrides, one CI run writing
// SARIF and JUnit, a baseline adopted on the old data, the pack's tests with
// a passing and a failing case, and a pack calling http.send refused.
func TestTeamAdoption(t *testing.T) {
	root := teamRepo(t, `packs: [builtin:integrity, ./policies/team]
rules:
  tools-shape: off
overrides:
  - files: ["data/legacy/**"]
    rules: {no-empty-assistant: off}
  - files: ["data/new.jsonl"]
    rules: {no-empty-assistant: error}
fail_on: error
`)
	t.Chdir(root)
	writeFile(t, root, "data/more.jsonl", emptyTurn+"\n")

	// 1. One CI run, SARIF and JUnit written together.
	out, errOut, code := chatlint(t, "", "check", "-o", "sarif=chatlint.sarif", "-o", "junit=chatlint.xml", "-o", "text", "data")
	if code != 1 {
		t.Fatalf("check: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "data/new.jsonl:1: error no-empty-assistant") || !strings.Contains(out, "data/more.jsonl:1: warning no-empty-assistant") ||
		strings.Contains(out, "legacy") {
		t.Errorf("overrides not applied:\n%s", out)
	}
	var log struct {
		Runs []struct {
			Results []struct{ RuleID, Level string }
		}
	}
	readJSON(t, "chatlint.sarif", &log)
	if len(log.Runs[0].Results) != 2 {
		t.Errorf("sarif results: %+v", log.Runs[0].Results)
	}
	raw, _ := os.ReadFile("chatlint.xml")
	var suites struct {
		Failures int `xml:"failures,attr"`
	}
	if err := xml.Unmarshal(raw, &suites); err != nil || suites.Failures != 1 {
		t.Errorf("junit: %v, %d failures (want the one error)\n%s", err, suites.Failures, raw)
	}

	// 2. Adopt a baseline: the same data then passes, new data still fails.
	if _, errOut, code := chatlint(t, "", "check", "--write-baseline", ".chatlint-baseline.json", "data"); code != 1 {
		t.Fatalf("write-baseline: exit %d %s", code, errOut)
	}
	if out, _, code := chatlint(t, "", "check", "--baseline", ".chatlint-baseline.json", "data"); code != 0 {
		t.Errorf("baselined run: exit %d\n%s", code, out)
	}
	writeFile(t, root, "data/new.jsonl", cleanRecord+"\n"+emptyTurn+"\n"+`{"messages":[{"role":"user","content":"x"},{"role":"assistant","content":""}]}`+"\n")
	out, _, code = chatlint(t, "", "check", "--baseline", ".chatlint-baseline.json", "data")
	if code != 1 || !strings.Contains(out, "data/new.jsonl:3: error no-empty-assistant") || strings.Contains(out, "data/new.jsonl:2:") {
		t.Errorf("after new data: exit %d\n%s", code, out)
	}

	// 3. The pack's tests: one passing and one failing fixture.
	os.MkdirAll("policies/team/tests", 0o755)
	writeFile(t, root, "policies/team/tests/pass.jsonl", emptyTurn+"\n")
	writeFile(t, root, "policies/team/tests/pass.expected.json", `[{"rule": "no-empty-assistant", "severity": "warning", "line": 1, "message_index": 1}]`)
	writeFile(t, root, "policies/team/tests/fail.jsonl", emptyTurn+"\n")
	writeFile(t, root, "policies/team/tests/fail.expected.json", `[]`)
	out, _, code = chatlint(t, "", "test", "./policies/team")
	if code != 1 || !strings.Contains(out, "tests/pass.jsonl: PASS fixture") || !strings.Contains(out, "tests/fail.jsonl: FAIL fixture") {
		t.Errorf("chatlint test: exit %d\n%s", code, out)
	}

	// 4. A pack that calls http.send is refused.
	writeFile(t, root, "policies/team/leak.rego", "package chatlint.team\n\nleak := http.send({\"method\": \"get\", \"url\": \"http://127.0.0.1:1\"})\n")
	_, errOut, code = chatlint(t, "", "check", "data")
	if code != 2 || !strings.Contains(errOut, "http.send is not allowed in rule packs") {
		t.Errorf("http.send: exit %d %s", code, errOut)
	}
}
