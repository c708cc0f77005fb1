package cmdutil

import (
	"fmt"
	"io"
	"slices"

	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/parquetrows"
	"github.com/chatlint/chatlint/engine/report"
)

// IsInputFile reports whether a folder walk of a command that reads
// records picks up the file: JSON Lines and JSON documents
// (jsonl.IsDataFile), and Parquet files, the shards Hugging Face datasets
// are stored in, read row by row.
func IsInputFile(path string) bool {
	return jsonl.IsDataFile(path) || parquetrows.IsParquet(path)
}

// RefuseParquet refuses a command that rewrites files (fix, repair) when a
// Parquet file is among its inputs: they are read row by row as JSON
// records, and writing those back would not give the same Parquet file
// (its schema, types, compression and row groups), so nothing is written.
func RefuseParquet(command string, files []string) error {
	for _, f := range files {
		if parquetrows.IsParquet(f) {
			return UsageError("%s: %s cannot write a Parquet file back as it was (chatlint reads its rows as JSON records); nothing was written: convert it to JSON Lines first (chatlint convert --to openai -o FILE.jsonl %s), then %s that", f, command, f, command)
		}
	}
	return nil
}

// LeaveWalkedParquet takes out of files the Parquet files a folder walk
// found (those not named in paths), with a note on stderr for each: a
// command that rewrites files leaves them as they are, and fixes the rest
// of the folder. A Parquet file named on the command line stays, for
// RefuseParquet to refuse the run.
func LeaveWalkedParquet(command string, paths, files []string, stderr io.Writer) []string {
	return slices.DeleteFunc(files, func(f string) bool {
		if !parquetrows.IsParquet(f) || slices.Contains(paths, f) {
			return false
		}
		fmt.Fprintf(stderr, "chatlint: note: %s left as it is: %s cannot write a Parquet file back (convert it to JSON Lines first: chatlint convert --to openai -o FILE.jsonl %s)\n",
			report.EscapeControls(f), command, report.EscapeControls(f))
		return true
	})
}
