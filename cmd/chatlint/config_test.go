package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// teamRepo lays out a dataset repository the way a team would: a custom
// pack that extends the built-in one, data in two folders and a config.
func teamRepo(t *testing.T, cfg string) string {
	t.Helper()
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	pack := filepath.Join(root, "policies/team")
	os.MkdirAll(pack, 0o755)
	team := filepath.Join(repo, "fixtures/packs/team")
	for _, n := range []string{"no_empty_assistant.rego", "no_empty_assistant_test.rego", "shapes.yaml"} {
		src, err := os.ReadFile(filepath.Join(team, n))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, pack, n, string(src))
	}
	writeFile(t, pack, "pack.yaml", "name: team\nextends: [builtin:integrity]\n")
	os.MkdirAll(filepath.Join(root, "data/legacy"), 0o755)
	writeFile(t, root, "data/new.jsonl", emptyTurn+"\n")
	writeFile(t, root, "data/legacy/old.jsonl", emptyTurn+"\n")
	writeFile(t, root, ".chatlint.yaml", cfg)
	return root
}

const teamConfig = `packs: [./policies/team]
rules:
  tools-shape: off
  no-empty-assistant: error
overrides:
  - files: ["data/legacy/**"]
    rules: {no-empty-assistant: info}
fail_on: warning
format: chat
`

// TestConfigTeamPack is the config part of the "done when": a custom
// pack (extending the built-in one) and two overrides, found from a
// subfolder, with flags winning over the file.
func TestConfigTeamPack(t *testing.T) {
	root := teamRepo(t, teamConfig)
	t.Chdir(filepath.Join(root, "data")) // the config is in the parent folder
	out, errOut, code := chatlint(t, "", "check", ".")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	if want := "chatlint: config: ../.chatlint.yaml\n"; errOut != want {
		t.Errorf("stderr %q, want it to name the config: %q", errOut, want)
	}
	for _, want := range []string{
		"legacy/old.jsonl:1: info no-empty-assistant", // override: info under data/legacy
		"new.jsonl:1: error no-empty-assistant",       // rules: raised to error
		"1 error, 0 warnings, 1 info",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "tools-shape") {
		t.Errorf("tools-shape is off in the config:\n%s", out)
	}
	// The integrity pack came in through extends.
	rules, _, _ := chatlint(t, "", "rules")
	if !strings.Contains(rules, "legacy-function-call") || !strings.Contains(rules, "no-empty-assistant") || strings.Contains(rules, "tools-shape") {
		t.Errorf("rules:\n%s", rules)
	}
	// Flags win over the file.
	if _, _, code := chatlint(t, "", "check", "--fail-on", "never", "."); code != 0 {
		t.Errorf("--fail-on never: exit %d, want 0", code)
	}
	if out, _, _ := chatlint(t, "", "check", "--no-config", "--no-builtin", "--pack", "../policies/team", "."); !strings.Contains(out, "warning no-empty-assistant") {
		t.Errorf("--no-config still applied the config:\n%s", out)
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name, cfg, want string
	}{
		{"unknown key", "packs: [builtin:integrity]\nfail_on: warning\nfial_on: error\n", ".chatlint.yaml:3: unknown key \"fial_on\""},
		{"unknown rule", "rules:\n  tools-shape: off\n  no-such-rule: warning\n", ".chatlint.yaml:3: unknown rule \"no-such-rule\""},
		{"unknown rule in override", "overrides:\n  - files: [\"a/**\"]\n    rules: {nope: off}\n", ".chatlint.yaml:3: unknown rule \"nope\""},
		{"bad level", "rules:\n  tools-shape: loud\n", ".chatlint.yaml:2: rule tools-shape: level \"loud\""},
		{"suppression without reason", "suppressions:\n  - rule: tools-shape\n    record: c1\n", ".chatlint.yaml:2: a suppression needs reason"},
		{"bad yaml", "rules: [\n", ".chatlint.yaml:"},
		{"unknown pack", "packs: [builtin:nope]\n", `no built-in pack "nope"`},
		{"bad fail_on", "fail_on: sometimes\n", ".chatlint.yaml:1: fail_on: \"sometimes\" is not one of"},
		// Values check reads later are the config's, not flags never given.
		{"bad max_line_size", "fail_on: error\nmax_line_size: banana\n", "config: .chatlint.yaml:2: max_line_size: want a positive size"},
		{"bad profile", "fail_on: error\nprofile: nope\n", "config: .chatlint.yaml:2: profile: unknown profile \"nope\""},
		{"bad output", "fail_on: error\noutput: [nope=x]\n", "config: .chatlint.yaml:2: output: unknown output format \"nope\""},
		{"missing baseline", "fail_on: error\nbaseline: missing.json\n", "config: .chatlint.yaml:2: baseline: open "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, ".chatlint.yaml", tt.cfg)
			data := writeFile(t, dir, "d.jsonl", cleanRecord+"\n")
			t.Chdir(dir)
			_, errOut, code := chatlint(t, "", "check", data)
			if code != 2 || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, tt.want)
			}
		})
	}
}

func TestConfigSuppression(t *testing.T) {
	dir := t.TempDir()
	rec := `{"id":"conv-7","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":""}]}`
	data := writeFile(t, dir, "d.jsonl", rec+"\n"+emptyTurn+"\n")
	team, _ := filepath.Abs(filepath.Join(repo, "fixtures/packs/team"))
	cfg := writeFile(t, dir, "lint.yaml", "packs: ["+team+"]\n"+
		"suppressions:\n  - rule: no-empty-assistant\n    record: conv-7\n    reason: kept on purpose as a negative example\n")
	out, errOut, _ := chatlint(t, "", "check", "--config", cfg, data)
	if strings.Contains(out, "d.jsonl:1:") || !strings.Contains(out, "d.jsonl:2: warning no-empty-assistant") {
		t.Errorf("suppression of conv-7:\n%s", out)
	}
	if !strings.Contains(errOut, "1 findings were suppressed") {
		t.Errorf("stderr does not say what was suppressed: %q", errOut)
	}
}

// TestSandboxRefusesNetwork checks that a pack calling http.send (or any
// builtin that reaches outside the document) fails to load, clearly.
func TestSandboxRefusesNetwork(t *testing.T) {
	for _, call := range []string{`http.send({"method": "get", "url": "http://127.0.0.1:1"})`, "time.now_ns()", `opa.runtime()`,
		`crypto.x509.parse_and_verify_certificates("")`, `crypto.x509.parse_and_verify_certificates_with_options("", {})`} {
		pack := t.TempDir()
		writeFile(t, pack, "p.rego", "package chatlint.p\n\nx := "+call+"\n")
		f := writeFile(t, t.TempDir(), "d.jsonl", cleanRecord+"\n")
		_, errOut, code := chatlint(t, "", "check", "--no-builtin", "--pack", pack, f)
		name, _, _ := strings.Cut(call, "(")
		if code != 2 || !strings.Contains(errOut, name+" is not allowed in rule packs") || !strings.Contains(errOut, "p.rego:3") {
			t.Errorf("%s: exit %d, stderr %q", name, code, errOut)
		}
	}
}

// TestBundlePack checks a pack shipped as an OPA bundle (.tar.gz).
func TestBundlePack(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(repo, "fixtures/packs/team/no_empty_assistant.rego"))
	if err != nil {
		t.Fatal(err)
	}
	bundle := filepath.Join(dir, "team.tar.gz")
	writeTarGz(t, bundle, map[string]string{"/team/rule.rego": string(src)})
	data := writeFile(t, dir, "d.jsonl", emptyTurn+"\n")
	out, errOut, code := chatlint(t, "", "check", "--no-builtin", "--pack", bundle, data)
	if code != 0 || !strings.Contains(out, "d.jsonl:1: warning no-empty-assistant") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

// TestRuleTimeout checks that a rule running past --rule-timeout (or its
// deprecated name --record-timeout, or the config's rule_timeout) is an
// error finding with file and line for that record, the run goes on, and
// the exit status says the data was not fully checked.
func TestRuleTimeout(t *testing.T) {
	pack := t.TempDir()
	writeFile(t, pack, "slow.rego", `package chatlint.slow
# METADATA
# description: Tries ten billion pairs on records that ask for it.
# custom:
#   id: slow
deny contains {"rule": "slow", "msg": "slow"} if {
	input.messages[0].text == "slow"
	some x in numbers.range(1, 100000)
	some y in numbers.range(1, 100000)
	x + y < 0
}
`)
	dir := t.TempDir()
	f := writeFile(t, dir, "d.jsonl", `{"messages":[{"role":"user","content":"slow"}]}`+"\n"+emptyTurn+"\n")
	team := filepath.Join(repo, "fixtures/packs/team")
	// Long enough that the ordinary record never reaches it on a loaded
	// machine; the slow rule would run for hours.
	cfg := writeFile(t, dir, "c.yaml", "rule_timeout: 1s\n")
	for _, args := range [][]string{{"--rule-timeout", "1s"}, {"--record-timeout", "1s"}, {"--config", cfg}} {
		out, errOut, code := chatlint(t, "", append([]string{"check", "--no-builtin", "--pack", pack, "--pack", team, f}, args...)...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
		want := "chatlint: 1 record(s) not checked: the rules failed on them (policy-error findings in the report)\n"
		if args[0] == "--config" { // a run names the config it obeys
			want = "chatlint: config: " + cfg + "\n" + want
		}
		if errOut != want {
			t.Errorf("%v: stderr %q, want %q", args, errOut, want)
		}
		for _, want := range []string{"d.jsonl:1: error policy-error:", "evaluating policies took longer than 1s;", "d.jsonl:2: warning no-empty-assistant"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: output lacks %q:\n%s", args, want, out)
			}
		}
	}
}

// TestSandboxHasNoLocalZone: a pack reading the time zone "Local" (or a zone
// abbreviation through time.parse_ns) sees UTC, whatever TZ says, so the
// same pack gives the same findings on every machine.
func TestSandboxHasNoLocalZone(t *testing.T) {
	pack := t.TempDir()
	writeFile(t, pack, "p.rego", `package chatlint.p

# METADATA
# description: the zone a pack sees
# custom:
#   id: zone
#   severity: warning
warn contains {"rule": "zone", "msg": sprintf("clock %v parsed %v", [time.clock([0, "Local"]), time.parse_ns("02 Jan 06 15:04 MST", "01 Jan 70 01:00 CET")])}
`)
	f := writeFile(t, t.TempDir(), "d.jsonl", cleanRecord+"\n")
	cmd := chatlintProcess("check", "--no-builtin", "--pack", pack, f)
	cmd.Env = append(cmd.Env, "TZ=Europe/Paris")
	out, err := cmd.CombinedOutput()
	if want := "clock [0, 0, 0] parsed 3600000000000"; !strings.Contains(string(out), want) {
		t.Errorf("a pack reads the machine's zone: want %q in\n%s (%v)", want, out, err)
	}
}

// TestConfigPlanted: a config above the repository (a shared /tmp, a CI
// runner's work root) is not read; one that others may write is refused
// with exit 2 and a message saying what to do; --config takes a file as the
// user names it.
func TestConfigPlanted(t *testing.T) {
	shared := t.TempDir()
	writeFile(t, shared, ".chatlint.yaml", "fail_on: never\n")
	root := filepath.Join(shared, "dataset")
	os.MkdirAll(filepath.Join(root, ".git"), 0o755)
	data := writeFile(t, root, "d.jsonl", cleanRecord+"\n{broken\n")
	t.Chdir(root)
	if _, errOut, code := chatlint(t, "", "check", data); code != 1 || strings.Contains(errOut, "config") {
		t.Errorf("the config above the repository was read: exit %d, stderr %q", code, errOut)
	}
	os.RemoveAll(filepath.Join(root, ".git")) // outside a repository: the folder itself only
	if _, errOut, code := chatlint(t, "", "check", data); code != 1 || strings.Contains(errOut, "config") {
		t.Errorf("outside a repository a parent's config was read: exit %d, stderr %q", code, errOut)
	}

	cfg := writeFile(t, root, ".chatlint.yaml", "fail_on: never\n")
	os.Chmod(cfg, 0o666)
	_, errOut, code := chatlint(t, "", "check", data)
	if want := "chatlint: config: .chatlint.yaml: refused: the file is writable by group or others (mode 0666)"; code != 2 || !strings.HasPrefix(errOut, want) {
		t.Errorf("a world-writable config: exit %d, stderr %q; want 2 and %q", code, errOut, want)
	}
	if _, errOut, code := chatlint(t, "", "check", "--config", cfg, data); code != 0 || !strings.Contains(errOut, "chatlint: config: "+cfg) {
		t.Errorf("--config names the file: exit %d, stderr %q", code, errOut)
	}
}

// TestRuleTimeoutMustBePositive: --rule-timeout 0s used to mean the
// default and -1s no limit, silently; both are usage errors now, in every
// command that takes the flag.
func TestRuleTimeoutMustBePositive(t *testing.T) {
	f := writeFile(t, t.TempDir(), "d.jsonl", cleanRecord+"\n")
	for _, cmd := range []string{"check", "fix"} {
		for _, v := range []string{"0s", "-1s", "0"} {
			args := []string{cmd, "--rule-timeout=" + v, f}
			if cmd == "fix" {
				args = append(args[:2], "--dry-run", f)
			}
			_, errOut, code := chatlint(t, "", args...)
			if code != 2 || !strings.Contains(errOut, "want a positive duration") {
				t.Errorf("%s --rule-timeout=%s: exit %d, stderr %q", cmd, v, code, errOut)
			}
		}
	}
	if _, errOut, code := chatlint(t, "", "check", "--rule-timeout", "2s", f); code != 0 {
		t.Errorf("--rule-timeout 2s: exit %d, stderr %q", code, errOut)
	}
}
