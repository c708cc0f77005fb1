package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// A Parquet shard is read row by row as check reads JSON Lines, and fix and
// repair refuse it (exit 2, nothing written); a damaged one is an input
// error that names the file.
func TestParquetInputs(t *testing.T) {
	shard := filepath.Join(repo, "../shared/data/parquet/smollm2-customs-train-00000-of-00001.parquet")
	if _, err := os.Stat(shard); err != nil {
		t.Skip("../shared/data is absent")
	}
	out, errOut, code := chatlint(t, "", "check", "-v", shard)
	if code != 0 || !strings.Contains(out, shard+": chat, 48 records") {
		t.Errorf("check: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = chatlint(t, "", "convert", "--to", "openai", shard)
	if code != 0 || strings.Count(out, "\n") != 48 {
		t.Errorf("convert: exit %d, %d examples\n%s", code, strings.Count(out, "\n"), errOut)
	}
	dir := t.TempDir()
	for _, args := range [][]string{{"fix", "-o", filepath.Join(dir, "o.jsonl"), shard}, {"repair", shard}} {
		_, errOut, code := chatlint(t, "", args...)
		if code != 2 || !strings.Contains(errOut, "cannot write a Parquet file back") {
			t.Errorf("%s: exit %d, stderr %s", args[0], code, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "o.jsonl")); err == nil {
		t.Error("fix wrote a file")
	}
	bad := filepath.Join(dir, "bad.parquet")
	os.WriteFile(bad, []byte("PAR1 this is not a parquet file PAR1"), 0o644)
	_, errOut, code = chatlint(t, "", "check", bad)
	if code != 2 || !strings.Contains(errOut, bad+": not a readable Parquet file") {
		t.Errorf("damaged file: exit %d, stderr %s", code, errOut)
	}
}

// parquetMsg and parquetChat are the rows of a small chat shard, the shape
// of a Hugging Face dataset's messages column.
type parquetMsg struct {
	Content string `parquet:"content"`
	Role    string `parquet:"role"`
}

type parquetChat struct {
	Messages []parquetMsg `parquet:"messages,list"`
}

// writeParquet writes rows as a Parquet file at path.
func writeParquet(t *testing.T, path string, rows []parquetChat) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[parquetChat](f)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// A folder walk picks up Parquet shards for the commands that read them
// (check, stats, convert --to openai), as a named one is; fix, which cannot
// write one back, leaves a walked shard as it is with a note and fixes the
// rest of the folder.
func TestParquetInFolderWalks(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.MkdirAll(filepath.Join(dir, "shards"), 0o755); err != nil {
		t.Fatal(err)
	}
	shard := filepath.Join(dir, "shards", "train-00000-of-00001.parquet")
	writeParquet(t, shard, []parquetChat{
		{Messages: []parquetMsg{{"Add 2 and 3.", "user"}, {"5", "assistant"}}},
		{Messages: []parquetMsg{{"Add 4 and 4.", "user"}, {"8", "assistant"}}},
		{Messages: []parquetMsg{{"Add 1 and 9.", "user"}, {"10", "assistant"}}},
	})
	jsonlFile := writeFile(t, dir, "more.jsonl", `{"messages":[{"role":"user","content":"hi"},{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}`+"\n")

	out, errOut, code := chatlint(t, "", "check", "-v", "--fail-on", "never", dir)
	if code != 0 || !strings.Contains(out, shard+": chat, 3 records") || !strings.Contains(out, "(2 files, 4 records") {
		t.Errorf("check DIR: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = chatlint(t, "", "stats", dir)
	if code != 0 || !strings.Contains(out, shard) {
		t.Errorf("stats DIR: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = chatlint(t, "", "convert", "--to", "openai", dir)
	if code != 0 || strings.Count(out, "\n") != 4 || !strings.Contains(out, `"content":"10"`) {
		t.Errorf("convert --to openai DIR: exit %d, %d examples\n%s%s", code, strings.Count(out, "\n"), out, errOut)
	}

	before, err := os.ReadFile(shard)
	if err != nil {
		t.Fatal(err)
	}
	outDir := filepath.Join(t.TempDir(), "fixed") + "/"
	_, errOut, code = chatlint(t, "", "fix", "-o", outDir, dir)
	if code != 0 || !strings.Contains(errOut, shard+" left as it is: fix cannot write a Parquet file back") {
		t.Errorf("fix -o DIR/ DIR: exit %d, stderr %s", code, errOut)
	}
	fixed, err := os.ReadFile(filepath.Join(outDir, outsideRel(jsonlFile)))
	if err != nil || strings.Count(string(fixed), `"content":"hi"`) != 1 {
		t.Errorf("fix did not fix the JSON Lines file of the folder (%v): %s", err, fixed)
	}
	err = filepath.WalkDir(outDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".parquet") {
			t.Errorf("fix wrote %s", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	_, errOut, code = chatlint(t, "", "fix", "--in-place", dir)
	if code != 0 || !strings.Contains(errOut, "left as it is") {
		t.Errorf("fix --in-place DIR: exit %d, stderr %s", code, errOut)
	}
	if after, _ := os.ReadFile(shard); !bytes.Equal(before, after) {
		t.Error("fix --in-place changed the Parquet file")
	}
	if baks, _ := filepath.Glob(shard + ".bak-*"); len(baks) > 0 {
		t.Errorf("fix backed up the Parquet file: %v", baks)
	}
	// Named, it is still refused: nothing written.
	_, errOut, code = chatlint(t, "", "fix", "--in-place", shard)
	if code != 2 || !strings.Contains(errOut, "cannot write a Parquet file back") {
		t.Errorf("fix --in-place SHARD: exit %d, stderr %s", code, errOut)
	}
}

// outsideRel is the path fix -o DIR/ writes an input under: its path as
// given, an absolute one without its leading slash.
func outsideRel(p string) string { return strings.TrimPrefix(p, "/") }
