package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunRefusesInputAsOutput: --output (or a shard of it, the rejects and
// notes beside it, --summary) that is a file the --input globs match is
// refused before the job runs: the job replaced the data it read.
func TestRunRefusesInputAsOutput(t *testing.T) {
	const rec = `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}` + "\n"
	tests := []struct {
		name string
		args func(dir, data string) []string
	}{
		{"--output", func(dir, data string) []string {
			return []string{"--input", filepath.Join(dir, "*.jsonl"), "--output", data}
		}},
		{"--output through a link", func(dir, data string) []string {
			l := filepath.Join(t.TempDir(), "out")
			os.Symlink(data, l)
			return []string{"--input", filepath.Join(dir, "*.jsonl"), "--output", l}
		}},
		{"--fix --output", func(dir, data string) []string {
			return []string{"--fix", "--input", filepath.Join(dir, "*.jsonl"), "--output", data}
		}},
		{"--fix rejects", func(dir, data string) []string {
			return []string{"--fix", "--input", filepath.Join(dir, "*"), "--output", strings.TrimSuffix(data, ".rejects.jsonl")}
		}},
		{"--summary", func(dir, data string) []string {
			return []string{"--input", filepath.Join(dir, "*.jsonl"), "--output", filepath.Join(t.TempDir(), "f"), "--summary", data}
		}},
		{"a shard", func(dir, data string) []string {
			return []string{"--input", filepath.Join(dir, "*"), "--output", strings.TrimSuffix(data, "-00001-of-00002"), "--shards", "2"}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			name := "data.jsonl"
			switch tt.name {
			case "--fix rejects":
				name = "out.rejects.jsonl"
			case "a shard":
				name = "out-00001-of-00002"
			}
			data := filepath.Join(dir, name)
			if err := os.WriteFile(data, []byte(rec), 0o644); err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			code := run(context.Background(), parse(t, tt.args(dir, data)...), &stderr)
			if code != exitError || !strings.Contains(stderr.String(), "refusing to write it") {
				t.Errorf("exit %d, stderr:\n%s\nwant %d and the output refused", code, stderr.String(), exitError)
			}
			if got, _ := os.ReadFile(data); string(got) != rec {
				t.Errorf("input replaced: %q", got)
			}
		})
	}
}
