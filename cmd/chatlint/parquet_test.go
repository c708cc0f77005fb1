package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
