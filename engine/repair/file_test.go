package repair

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chatlint/chatlint/engine/document"
)

var stamp = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

// writeAged writes a file with the given mode and an mtime in the past, so
// that a rewrite cannot keep the mtime by chance.
func writeAged(t *testing.T, dir, name, content string, mode fs.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil { // the umask may have narrowed it
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	return p
}

// unchanged fails unless path still has the content and mtime it had.
func unchanged(t *testing.T, path, content string, before fs.FileInfo) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != content {
		t.Errorf("content changed:\n%q\nwant\n%q", got, content)
	}
	fi, _ := os.Stat(path)
	if !fi.ModTime().Equal(before.ModTime()) {
		t.Errorf("mtime changed: %v, was %v", fi.ModTime(), before.ModTime())
	}
}

// entries lists a folder's names.
func entries(t *testing.T, dir string) []string {
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

const (
	header  = `{"type":"session","id":"s1","cwd":"/tmp"}`
	message = `{"type":"message","message":{"role":"user","content":"hi"}}`
)

func TestFileLeavesUntouched(t *testing.T) {
	tests := []struct {
		name    string
		content string
		opts    Options
		want    Result
	}{
		{"clean LF", header + "\n" + message + "\n", Options{}, Result{Outcome: Clean, Stats: Stats{Records: 2}}},
		{"clean CRLF stays CRLF", header + "\r\n" + message + "\r\n", Options{}, Result{Outcome: Clean, Stats: Stats{Records: 2}}},
		{"header only", header + "\n", Options{}, Result{Outcome: Clean, Stats: Stats{Records: 1}}},
		{"blank lines are not a reason to rewrite", header + "\n\n  \n" + message, Options{}, Result{Outcome: Clean, Stats: Stats{Records: 2}}},
		{"empty", "", Options{}, Result{Outcome: Empty, Reason: ReasonEmpty}},
		{"whitespace only", " \n\t\r\n\n", Options{}, Result{Outcome: Empty, Reason: ReasonEmpty}},
		{"invalid header: a message first", message + "\n{\"type\":\n", Options{},
			Result{Outcome: Skipped, Reason: ReasonHeader, Stats: Stats{Records: 1, Dropped: 1}}},
		{"invalid header: empty id", `{"type":"session","id":""}` + "\n{\n", Options{},
			Result{Outcome: Skipped, Reason: ReasonHeader, Stats: Stats{Records: 1, Dropped: 1}}},
		{"invalid header: id not a string", `{"type":"session","id":7}` + "\n{\n", Options{},
			Result{Outcome: Skipped, Reason: ReasonHeader, Stats: Stats{Records: 1, Dropped: 1}}},
		{"invalid header: type Session, recognized by the entries after it", `{"type":"Session","id":"s1","cwd":"/tmp"}` + "\n" + message + "\n{\"type\":\n", Options{},
			Result{Outcome: Skipped, Reason: ReasonHeader, Stats: Stats{Records: 2, Dropped: 1}}},
		{"invalid header: type Session, clean otherwise", `{"type":"Session","id":"s1"}` + "\n" + message + "\n", Options{},
			Result{Outcome: Skipped, Reason: ReasonHeader, Stats: Stats{Records: 2}}},
		{"invalid header: the JSON string \"session\"", `"session"` + "\n" + message + "\n" + message + "\n", Options{},
			Result{Outcome: Skipped, Reason: ReasonHeader, Stats: Stats{Records: 3}}},
		// The reference repair's first parsed entry must be the header: a
		// JSON string before the real header is refused, nothing changed.
		{"invalid header: the JSON string \"session\" before the header", `"session"` + "\n" + header + "\n" + message + "\n{\"type\":\n", Options{},
			Result{Outcome: Skipped, Reason: ReasonHeader, Stats: Stats{Records: 3, Dropped: 1}}},
		{"JSON values that are not objects are kept: nothing to repair", header + "\n42\nnull\n" + message + "\n", Options{},
			Result{Outcome: Clean, Stats: Stats{Records: 4}}},
		{"header required by --format pi-session", `{"messages":[]}` + "\n{\n", Options{Format: document.PiSession},
			Result{Outcome: Skipped, Reason: ReasonHeader, Stats: Stats{Records: 1, Dropped: 1}}},
		// Not JSON Lines at all: refused whole, even with --force (exit 2).
		{"no line is JSON", "not json\n{\n", Options{}, Result{Outcome: Refused, Reason: "the file is text, not JSON Lines (no line near its start is a JSON object)"}},
		{"markdown", "# Chat\n\n**User:** hi\n\n**Assistant:** hello\n", Options{Force: true}, Result{Outcome: Refused, Reason: "the file is a Markdown document, not JSON Lines"}},
		{"parquet", "PAR1\x15\x04\x00\x00PAR1", Options{Force: true}, Result{Outcome: Refused, Reason: "the file is a Parquet file (binary; export it to JSON Lines first, e.g. with pandas or DuckDB)"}},
		{"pretty-printed document", "{\n  \"messages\": []\n}\n", Options{Force: true}, Result{Outcome: Refused, Reason: "the file is one pretty-printed JSON object (keys: messages), not JSON Lines"}},
		{"a line of NUL bytes among records is JSON Lines", "\x00\x00\x00\n" + `{"a":1}` + "\n" + `{"b":2}` + "\n", Options{DryRun: true}, Result{Outcome: WouldRepair, Stats: Stats{Records: 2, Dropped: 1}}},
		{"mostly not JSON", "{\n  \"a\": 1,\n  \"b\": [2]\n}\n" + `{"c":3}` + "\n", Options{},
			Result{Outcome: Skipped, Reason: "most lines are not valid JSON (4 of 5); --force repairs it anyway", Stats: Stats{Records: 1, Dropped: 4}}},
		{"dry run", header + "\n" + message + "\n{\"type\":\"mess", Options{DryRun: true},
			Result{Outcome: WouldRepair, Stats: Stats{Records: 2, Dropped: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := writeAged(t, dir, "s.jsonl", tt.content, 0o644)
			before, _ := os.Stat(p)
			got := File(p, tt.opts)
			tt.want.File = p
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("File (-want +got):\n%s", diff)
			}
			unchanged(t, p, tt.content, before)
			if diff := cmp.Diff([]string{"s.jsonl"}, entries(t, dir)); diff != "" {
				t.Errorf("folder (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFileRepairs(t *testing.T) {
	tests := []struct {
		name    string
		content string
		mode    fs.FileMode
		opts    Options
		want    string
		stats   Stats
	}{
		{name: "truncated last line", content: header + "\n" + message + "\n{\"type\":\"message\",\"mess", mode: 0o644,
			want: header + "\n" + message + "\n", stats: Stats{Records: 2, Dropped: 1}},
		{name: "CRLF becomes LF once something is dropped", content: header + "\r\n{oops\r\n" + message + "\r\n", mode: 0o600,
			want: header + "\n" + message + "\n", stats: Stats{Records: 2, Dropped: 1}},
		{name: "corrupt line before the header", content: "\x00\x00garbage\n" + header + "\n" + message, mode: 0o640,
			want: header + "\n" + message + "\n", stats: Stats{Records: 2, Dropped: 1}},
		{name: "kept lines byte for byte", content: "{ \"messages\" : [ ], \"n\": 1.0e0 }\n{\"messages\":[\n", mode: 0o644,
			want: "{ \"messages\" : [ ], \"n\": 1.0e0 }\n", stats: Stats{Records: 1, Dropped: 1}},
		{name: "records glued by a lone CR", content: header + "\r" + message + "\n", mode: 0o644,
			want: header + "\n" + message + "\n", stats: Stats{Records: 2, Split: 1}},
		{name: "other agent logs need no header", content: `{"type":"user","message":{"role":"user","content":"hi"}}` + "\n{\"ty\n", mode: 0o644,
			want: `{"type":"user","message":{"role":"user","content":"hi"}}` + "\n", stats: Stats{Records: 1, Dropped: 1}},
		{name: "--force repairs a mostly broken file", content: "{\n\"a\": 1\n}\n{\"b\":2}\n", mode: 0o644, opts: Options{Force: true},
			want: "{\"b\":2}\n", stats: Stats{Records: 1, Dropped: 3}},
		// The reference repair keeps every line that parses, whatever its
		// value, and drops only the one that does not.
		{name: "lines holding JSON that is not an object are kept, the truncated one dropped",
			content: header + "\n42\nnull\n\"text\"\n" + message + "\n[1,2]\ntrue\n{\"type\":\"message\",\"mess\n", mode: 0o644,
			want: header + "\n42\nnull\n\"text\"\n" + message + "\n[1,2]\ntrue\n", stats: Stats{Records: 7, Dropped: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := writeAged(t, dir, "s.jsonl", tt.content, tt.mode)
			tt.opts.Now = func() time.Time { return stamp }
			got := File(p, tt.opts)
			want := Result{File: p, Outcome: Repaired, Stats: tt.stats, Backup: got.Backup}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("File (-want +got):\n%s", diff)
			}
			if !strings.HasPrefix(got.Backup, p+".bak-20261123T100000Z-") {
				t.Errorf("backup name %q", got.Backup)
			}
			out, _ := os.ReadFile(p)
			if diff := cmp.Diff(tt.want, string(out)); diff != "" {
				t.Errorf("repaired file (-want +got):\n%s", diff)
			}
			bak, _ := os.ReadFile(got.Backup)
			if string(bak) != tt.content {
				t.Errorf("backup %q, want the original %q", bak, tt.content)
			}
			for _, f := range []string{p, got.Backup} {
				if fi, _ := os.Stat(f); fi.Mode().Perm() != tt.mode {
					t.Errorf("%s: mode %v, want %v", f, fi.Mode().Perm(), tt.mode)
				}
			}
			if n := len(entries(t, dir)); n != 2 {
				t.Errorf("%d files in the folder, want the file and its backup: %v", n, entries(t, dir))
			}
			// A second run finds nothing to do and touches nothing.
			before, _ := os.Stat(p)
			if again := File(p, tt.opts); again.Outcome != Clean {
				t.Errorf("second run: %+v, want clean", again)
			}
			unchanged(t, p, tt.want, before)
		})
	}
}

func TestFileFailuresLeaveOriginal(t *testing.T) {
	const content = header + "\n{broken\n" + message + "\n"
	diskFull := errors.New("no space left on device")
	tests := []struct {
		name   string
		inject func(t *testing.T, path string)
		reason string
	}{
		{"backup fails", func(t *testing.T, _ string) {
			backupFile = func(string, time.Time) (string, error) { return "", diskFull }
		}, "repair failed, file left as it was: no space left on device"},
		{"rename fails", func(t *testing.T, _ string) {
			// The real Write, failing at its last step: temp written and synced.
			writeFile = func(path string, perm fs.FileMode, write func(io.Writer) error) error {
				return real(path, perm, func(w io.Writer) error {
					if err := write(w); err != nil {
						return err
					}
					return diskFull
				})
			}
		}, "repair failed, file left as it was: no space left on device"},
		{"file appended to meanwhile", func(t *testing.T, path string) {
			writeFile = func(p string, perm fs.FileMode, write func(io.Writer) error) error {
				f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
				f.WriteString(message + "\n")
				f.Close()
				return real(p, perm, write)
			}
		}, "repair failed, file left as it was: the file changed while it was being repaired"},
		{"read error", func(t *testing.T, _ string) {
			open = func(name string) (source, error) {
				f, err := os.Open(name)
				return failingReader{f}, err
			}
		}, "read error: input/output error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func(o func(string) (source, error), b func(string, time.Time) (string, error), w func(string, fs.FileMode, func(io.Writer) error) error) {
				open, backupFile, writeFile = o, b, w
			}(open, backupFile, writeFile)
			dir := t.TempDir()
			p := writeAged(t, dir, "s.jsonl", content, 0o640)
			tt.inject(t, p)
			before, _ := os.Stat(p)
			got := File(p, Options{})
			if got.Outcome != Failed || got.Reason != tt.reason || got.Backup != "" {
				t.Errorf("got %+v, want Failed with %q", got, tt.reason)
			}
			if tt.name == "file appended to meanwhile" {
				return // the other writer's line is there, ours is not
			}
			unchanged(t, p, content, before)
			if diff := cmp.Diff([]string{"s.jsonl"}, entries(t, dir)); diff != "" {
				t.Errorf("temp file or backup left behind (-want +got):\n%s", diff)
			}
		})
	}
}

var real = writeFile

type failingReader struct{ *os.File }

func (failingReader) Read([]byte) (int, error) { return 0, syscall.EIO }

func TestFilePaths(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub.jsonl")
	os.Mkdir(sub, 0o755)
	target := writeAged(t, dir, "target.data", header+"\n{\n", 0o644)
	link := filepath.Join(dir, "link.jsonl")
	os.Symlink(target, link)
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	doc := writeAged(t, dir, "doc.json", "{\n  \"messages\": []\n}\n", 0o644)
	tests := []struct {
		path string
		want Result
	}{
		{doc, Result{Outcome: Skipped, Reason: ReasonJSONDocument}},
		{filepath.Join(dir, "nope.jsonl"), Result{Outcome: Failed, Reason: "no such file or directory"}},
		{sub, Result{Outcome: Failed, Reason: "is a directory"}},
		{fifo, Result{Outcome: Failed, Reason: "not a regular file"}},
		{link, Result{Outcome: Repaired, Stats: Stats{Records: 1, Dropped: 1}}},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			got := File(tt.path, Options{})
			tt.want.File = tt.path
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(Result{}, "Backup")); diff != "" {
				t.Errorf("File (-want +got):\n%s", diff)
			}
		})
	}
	// The link still points at the target, which was repaired; the backup
	// sits beside the target.
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if got, _ := os.ReadFile(target); string(got) != header+"\n" {
		t.Errorf("target %q", got)
	}
}

func TestFileUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any file")
	}
	p := writeAged(t, t.TempDir(), "s.jsonl", header+"\n", 0o000)
	if got := File(p, Options{}); got.Outcome != Failed || got.Reason != "permission denied" {
		t.Errorf("got %+v", got)
	}
}
