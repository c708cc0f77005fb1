package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
)

const repairFixtures = repo + "/fixtures/repair"

// copyInputs copies fixtures/repair/files to a new folder, with mtimes an
// hour old so that a rewrite cannot keep one by chance.
func copyInputs(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	ents, err := os.ReadDir(filepath.Join(repairFixtures, "files"))
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(repairFixtures, "files", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, e.Name())
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	return dir
}

var backupSuffix = regexp.MustCompile(`\.bak-\d{8}T\d{6}Z-[0-9a-f]{8}`)

// normalize hides what changes from run to run: the folder and the time and
// random parts of backup names.
func normalize(out, dir string) string {
	out = strings.ReplaceAll(out, dir, "DIR")
	return backupSuffix.ReplaceAllString(out, ".bak-TIME-RAND")
}

// golden compares got with fixtures/repair/NAME, or rewrites it with -update.
func repairGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(repairFixtures, name)
	if *update {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

// TestRepairGolden repairs every input of fixtures/repair/files and compares
// the reports and the files with the expected ones; untouched files must
// keep their mtime, repaired ones must have an exact backup, and a second
// run must find nothing to do.
func TestRepairGolden(t *testing.T) {
	dir := copyInputs(t)
	before := map[string]os.FileInfo{}
	inputs := map[string]string{}
	for _, e := range mustReadDir(t, dir) {
		fi, _ := os.Stat(filepath.Join(dir, e))
		before[e] = fi
		data, _ := os.ReadFile(filepath.Join(dir, e))
		inputs[e] = string(data)
	}

	out, errOut, code := chatlint(t, "", "repair", dir)
	if errOut != "" || code != cmdutil.ExitError {
		t.Errorf("exit %d (want 2: not-json and pretty-printed are not JSON Lines, refused), stderr %q", code, errOut)
	}
	repairGolden(t, "repair.txt", normalize(out, dir))

	backups := map[string]string{} // file -> backup
	for _, name := range mustReadDir(t, dir) {
		if i := strings.Index(name, ".bak-"); i > 0 {
			backups[name[:i]] = name
		}
	}
	for name, input := range inputs {
		p := filepath.Join(dir, name)
		data, _ := os.ReadFile(p)
		repairGolden(t, filepath.Join("want", name), string(data))
		fi, _ := os.Stat(p)
		if bak, ok := backups[name]; ok {
			if b, _ := os.ReadFile(filepath.Join(dir, bak)); string(b) != input {
				t.Errorf("%s: backup %q differs from the input", name, bak)
			}
			if string(data) == input {
				t.Errorf("%s: backed up but not changed", name)
			}
		} else if string(data) != input || !fi.ModTime().Equal(before[name].ModTime()) {
			t.Errorf("%s: changed without a backup", name)
		}
	}

	// Every file repaired or found clean now parses for check.
	for _, line := range strings.Split(out, "\n") {
		file, status, _ := strings.Cut(line, ": ")
		if !strings.HasPrefix(status, "repaired") && status != "clean" {
			continue
		}
		if res, _, _ := chatlint(t, "", "check", "--no-builtin", file); strings.Contains(res, "jsonl-syntax") {
			t.Errorf("check after repair:\n%s", res)
		}
	}

	again, _, code := chatlint(t, "", "repair", dir)
	if code != cmdutil.ExitError { // the refused files are still there
		t.Errorf("second run: exit %d", code)
	}
	repairGolden(t, "again.txt", normalize(again, dir))
}

func TestRepairGoldenJSONAndDryRun(t *testing.T) {
	dir := copyInputs(t)
	out, _, _ := chatlint(t, "", "repair", "-o", "json", dir)
	repairGolden(t, "repair.json", normalize(out, dir))

	dir = copyInputs(t)
	before := map[string]time.Time{}
	for _, name := range mustReadDir(t, dir) {
		fi, _ := os.Stat(filepath.Join(dir, name))
		before[name] = fi.ModTime()
	}
	out, _, code := chatlint(t, "", "repair", "--dry-run", dir)
	if code != cmdutil.ExitError {
		t.Errorf("dry run: exit %d, want 2 (files refused)", code)
	}
	repairGolden(t, "dry-run.txt", normalize(out, dir))
	names := mustReadDir(t, dir)
	if len(names) != len(before) {
		t.Errorf("dry run wrote files: %v", names)
	}
	for _, name := range names {
		fi, _ := os.Stat(filepath.Join(dir, name))
		got, _ := os.ReadFile(filepath.Join(dir, name))
		want, _ := os.ReadFile(filepath.Join(repairFixtures, "files", name))
		if !fi.ModTime().Equal(before[name]) || string(got) != string(want) {
			t.Errorf("dry run changed %s", name)
		}
	}
}

func mustReadDir(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func TestRepairExitCodes(t *testing.T) {
	dir := t.TempDir()
	clean := writeFile(t, dir, "clean.jsonl", cleanRecord+"\n")
	broken := writeFile(t, dir, "broken.jsonl", cleanRecord+"\n{\"messages\": [\n")
	empty := writeFile(t, dir, "empty.jsonl", "")
	headless := writeFile(t, dir, "headless.jsonl", `{"type":"message","message":{"role":"user","content":"hi"}}`+"\n")
	noJSONL := t.TempDir()
	links := t.TempDir()
	os.Symlink(t.TempDir(), filepath.Join(links, "dirlink.jsonl"))

	tests := []struct {
		name    string
		args    []string
		want    int
		wantOut string
		wantErr string
	}{
		{name: "clean", args: []string{"repair", clean}, want: 0, wantOut: clean + ": clean\n1 file(s): 0 repaired, 1 clean, 0 skipped\n"},
		{name: "empty is not a failure", args: []string{"repair", empty}, want: 0, wantOut: empty + ": skipped: empty file\n"},
		{name: "dry run of a broken file", args: []string{"repair", "--dry-run", broken}, want: 1,
			wantOut: broken + ": would repair: dropped 1 line(s) (dry run)\n1 file(s): 1 to repair, 0 clean, 0 skipped\n"},
		{name: "invalid header", args: []string{"repair", headless}, want: 1, wantOut: headless + ": skipped: invalid session header\n"},
		{name: "--format chat drops the header check", args: []string{"repair", "--format", "chat", headless}, want: 0, wantOut: headless + ": clean\n"},
		{name: "--format pi-session requires it", args: []string{"repair", "--format", "pi-session", clean}, want: 1,
			wantOut: clean + ": skipped: invalid session header\n"},
		{name: "missing path, the others still done", args: []string{"repair", filepath.Join(dir, "nope.jsonl"), clean}, want: 2,
			wantOut: filepath.Join(dir, "nope.jsonl") + ": skipped: no such file or directory\n" + clean + ": clean\n"},
		{name: "a directory where a file is expected", args: []string{"repair", links}, want: 2,
			wantOut: filepath.Join(links, "dirlink.jsonl") + ": skipped: is a directory\n"},
		{name: "a directory without JSONL files", args: []string{"repair", noJSONL}, want: 0,
			wantOut: noJSONL + ": skipped: no *.jsonl file in this directory\n"},
		{name: "no inputs", args: []string{"repair"}, want: 2, wantErr: "repair needs at least one file or directory"},
		{name: "stdin", args: []string{"repair", "-"}, want: 2, wantErr: "cannot read standard input"},
		{name: "bad output", args: []string{"repair", "-o", "xml", clean}, want: 2, wantErr: `unknown output format "xml"`},
		{name: "bad format", args: []string{"repair", "--format", "csv", clean}, want: 2, wantErr: `unknown input format "csv"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := chatlint(t, "", tt.args...)
			if code != tt.want {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.want, errOut)
			}
			if !strings.HasPrefix(out, tt.wantOut) {
				t.Errorf("stdout %q, want it to start with %q", out, tt.wantOut)
			}
			if !strings.Contains(errOut, tt.wantErr) || (tt.wantErr == "" && errOut != "") {
				t.Errorf("stderr %q, want %q", errOut, tt.wantErr)
			}
		})
	}
}
