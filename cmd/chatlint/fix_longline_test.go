package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFixLongLineNotDropped: a record longer than --max-line-size was left
// out of fix's output ("skipped (left as it is)", no rejects, exit 0). The
// reader does not keep such a line, so the file is not written at all and
// fix exits 2; the input is untouched in every mode.
func TestFixLongLineNotDropped(t *testing.T) {
	long := `{"id":"big","messages":[{"role":"user","content":"` + strings.Repeat("x", 300) + `"},{"role":"assistant","content":"a"}]}`
	input := needsFix + "\n" + long + "\n" + cleanRecord + "\n"
	for _, mode := range []string{"-o", "--in-place", "--dry-run"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			p := writeFile(t, dir, "a.jsonl", input)
			out := filepath.Join(dir, "out.jsonl")
			args := []string{"fix", "--max-line-size", "200", mode}
			if mode == "-o" {
				args = append(args, out)
			}
			stdout, stderr, code := chatlint(t, "", append(args, p)...)
			if code != 2 || !strings.Contains(stderr, "over --max-line-size") {
				t.Errorf("exit %d, stderr %q; want 2 naming --max-line-size", code, stderr)
			}
			if strings.Contains(stdout, "fixed 1") {
				t.Errorf("stdout claims a fix:\n%s", stdout)
			}
			if got := mustRead(t, p); got != input {
				t.Errorf("input changed: %q", got)
			}
			for _, q := range []string{out, p + ".rejects.jsonl", out + ".rejects.jsonl"} {
				if _, err := os.Stat(q); err == nil {
					t.Errorf("%s was written", filepath.Base(q))
				}
			}
			if len(backups(t, p)) != 0 {
				t.Errorf("backups left: %v", backups(t, p))
			}
		})
	}
	// Under the limit the same file is fixed.
	dir := t.TempDir()
	p := writeFile(t, dir, "a.jsonl", input)
	if _, stderr, code := chatlint(t, "", "fix", "--in-place", p); code != 0 {
		t.Errorf("default limit: exit %d\n%s", code, stderr)
	}
	if got := mustRead(t, p); got != fixedRec+"\n"+long+"\n"+cleanRecord+"\n" {
		t.Errorf("fixed = %q", got)
	}
}
