package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/chatlint/chatlint/engine/atomicfile"
	"github.com/chatlint/chatlint/engine/jsonl"
)

// CheckInput makes sure the glob matches at least one file, through the
// same filesystems the job reads with, so a typo fails before the job is
// submitted. For a fixing job it must match no .json document.
func CheckInput(ctx context.Context, glob string, fixing bool) error {
	fs, err := filesystem.New(ctx, glob)
	if err != nil {
		return fmt.Errorf("--input %s: %w", glob, err)
	}
	defer fs.Close()
	files, err := fs.List(ctx, glob)
	if err != nil {
		return fmt.Errorf("--input %s: %w", glob, err)
	}
	if len(files) == 0 {
		return fmt.Errorf("--input %s: no file matches", glob)
	}
	if fixing {
		for _, f := range files {
			if jsonl.IsJSONDocument(f) {
				return fmt.Errorf("--input %s: %s: %w", glob, f, ErrFixJSON)
			}
		}
	}
	// The job skips directories; one given on its own would check nothing.
	for _, f := range files {
		if info, err := os.Stat(f); err != nil || !info.IsDir() {
			return nil // a file, or not on this machine's disk
		}
	}
	return fmt.Errorf("--input %s: matches only directories; give a glob of files, such as '%s'", glob, path.Join(glob, "*.jsonl"))
}

// ReadSummary reads the summary a finished job wrote.
func ReadSummary(ctx context.Context, path string) (Summary, error) {
	var s Summary
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return s, err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return s, err
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// CheckOutputs refuses a job whose findings, records, rejects, notes or
// summary would be written over one of its inputs: every file the input
// globs match is compared with every output, by identity on this
// machine's disk (links followed, as chatlint's commands do) and by name
// on other filesystems. The job writes its outputs whole at its end, so
// an output named like an input replaced the data it read.
func CheckOutputs(ctx context.Context, job Options) error {
	var inputs []string
	for _, glob := range job.Inputs {
		fs, err := filesystem.New(ctx, glob)
		if err != nil {
			return fmt.Errorf("--input %s: %w", glob, err)
		}
		files, err := fs.List(ctx, glob)
		fs.Close()
		if err != nil {
			return fmt.Errorf("--input %s: %w", glob, err)
		}
		inputs = append(inputs, files...)
	}
	local := atomicfile.NewInputs(inputs...)
	check := func(flag, out string) error {
		if slices.Contains(inputs, out) {
			return fmt.Errorf("%s: %s is an input of the job; refusing to write it (write the output elsewhere)", flag, out)
		}
		if err := local.CheckFile(out); err != nil {
			return fmt.Errorf("%s: %w", flag, err)
		}
		return nil
	}
	for _, set := range []struct{ flag, path string }{{"--output", job.Output}, {"--output", job.Rejects}, {"--output", job.Notes}} {
		if set.path == "" {
			continue
		}
		for i := range max(job.Shards, 1) {
			if err := check(set.flag, ShardName(set.path, i, job.Shards)); err != nil {
				return err
			}
		}
	}
	if job.Summary != "" {
		return check("--summary", job.Summary)
	}
	return nil
}
