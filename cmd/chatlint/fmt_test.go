package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFmt(t *testing.T) {
	pack := t.TempDir()
	messy := "package chatlint.p\nx:=1\ny   :=   [1,2]\n"
	f := writeFile(t, pack, "p.rego", messy)
	os.Chmod(f, 0o600)
	writeFile(t, pack, "ok.rego", "package chatlint.ok\n\nx := 1\n")

	out, _, code := chatlint(t, "", "fmt", "--check", pack)
	if code != 1 || out != f+": not formatted\n" {
		t.Errorf("--check: exit %d, output %q", code, out)
	}
	if got, _ := os.ReadFile(f); string(got) != messy {
		t.Error("--check changed the file")
	}
	out, _, code = chatlint(t, "", "fmt", pack)
	if code != 0 || out != f+": formatted\n" {
		t.Errorf("fmt: exit %d, output %q", code, out)
	}
	got, _ := os.ReadFile(f)
	if want := "package chatlint.p\n\nx := 1\ny := [1, 2]\n"; string(got) != want {
		t.Errorf("formatted:\n%s\nwant:\n%s", got, want)
	}
	if fi, _ := os.Stat(f); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
	}
	if _, _, code := chatlint(t, "", "fmt", "--check", pack); code != 0 {
		t.Errorf("second --check: exit %d", code)
	}
	bad := writeFile(t, t.TempDir(), "bad.rego", "package chatlint.bad\n\nx := \n")
	if _, errOut, code := chatlint(t, "", "fmt", bad); code != 2 || !strings.Contains(errOut, "bad.rego:4: rego_parse_error") {
		t.Errorf("syntax error: exit %d, %q", code, errOut)
	}
}

// TestShippedRegoIsFormatted keeps the built-in and example packs formatted.
func TestShippedRegoIsFormatted(t *testing.T) {
	out, errOut, code := chatlint(t, "", "fmt", "--check", filepath.Join(repo, "policies"), filepath.Join(repo, "fixtures/packs"))
	if code != 0 {
		t.Errorf("exit %d: run chatlint fmt on these\n%s%s", code, out, errOut)
	}
}
