package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// forged is what a hostile dataset writes in a name: a screen clear, an OSC 8
// link, a bell, a carriage return and a GitHub Actions workflow command on a
// line of its own, then an old-style command.
const forged = "evil\x1b[2J\x1b]8;;http://x.example\a\r\n::error file=a.jsonl,line=1::forged ##[warning]old"

// TestCommandsEscapeDataNames: stats, repair, convert --to openai and
// validate-input print file and tool names from the data escaped, as check
// and fix do: no raw control character reaches the terminal and no line of
// their output is a workflow command the Actions runner would obey.
func TestCommandsEscapeDataNames(t *testing.T) {
	dir := t.TempDir()
	chat := `{"messages":[{"role":"user","content":"q"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"` +
		jsonEscape(forged) + `","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"r"},{"role":"assistant","content":"a"}]}`
	name := "::error file=b.jsonl::" + strings.ReplaceAll(forged, "/", "_") + ".jsonl"
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(chat+"\n{broken\n"+chat+"\n"+chat+"\n"), 0o644); err != nil {
		t.Skip("the file system refuses the name:", err)
	}
	contract := filepath.Join(dir, "::warning::"+strings.ReplaceAll(forged, "/", "_")+".contract.jsonl")
	os.WriteFile(contract, []byte(`{"conversation_id":"c1","user_id":"u","timestamp":"2026-01-01T00:00:00Z","messages":[{"role":"`+jsonEscape(forged)+`","content":"x"}],"metadata":{}}`+"\n"), 0o644)

	// A file no format claims: stats names it on stderr.
	unknown := filepath.Join(dir, "::error::"+strings.ReplaceAll(forged, "/", "_")+".unknown.jsonl")
	os.WriteFile(unknown, []byte(`{"foo":1}`+"\n"), 0o644)

	runs := map[string][]string{
		"stats":              {"stats", p},
		"stats unrecognized": {"stats", unknown},
		"convert --to":       {"convert", "--to", "openai", "-o", filepath.Join(dir, "out.jsonl"), p},
		"validate-input":     {"validate-input", "--input", contract},
		"repair --dry-run":   {"repair", "--dry-run", p},
	}
	for what, args := range runs {
		stdout, stderr, code := chatlint(t, "", args...)
		if code == 2 && !strings.Contains(stderr+stdout, `\x1b`) {
			t.Errorf("%s: exit 2 without naming the input: %s", what, stderr)
		}
		for stream, text := range map[string]string{"stdout": stdout, "stderr": stderr} {
			if strings.ContainsAny(text, "\x1b\a\r") {
				t.Errorf("%s: %s holds a raw control character: %q", what, stream, text)
			}
			for _, l := range strings.Split(text, "\n") {
				if strings.HasPrefix(strings.TrimLeftFunc(l, unicode.IsSpace), "::") || strings.Contains(l, "##[") {
					t.Errorf("%s: %s has a line the Actions runner takes as a command: %q", what, stream, l)
				}
			}
		}
		if !strings.Contains(stdout+stderr, `\x1b[2J`) {
			t.Errorf("%s: the name is not shown escaped:\nstdout %q\nstderr %q", what, stdout, stderr)
		}
	}
}

func jsonEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\x1b", `\u001b`, "\a", `\u0007`, "\r", `\r`, "\n", `\n`)
	return r.Replace(s)
}
