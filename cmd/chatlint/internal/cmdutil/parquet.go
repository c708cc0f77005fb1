package cmdutil

import "github.com/chatlint/chatlint/engine/parquetrows"

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
