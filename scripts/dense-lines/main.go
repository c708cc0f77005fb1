// Command dense-lines writes the dense records of docs/limits.md's memory
// table, one file per shape: go run ./scripts/dense-lines [-size BYTES] DIR.
// The sizes are those of the table: 60 MiB, and 32 MiB for the messages.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/chatlint/chatlint/internal/denselines"
)

func main() {
	size := flag.Int("size", 0, "bytes per record (default: the table's, 60 MiB; 32 MiB for messages)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: dense-lines [-size BYTES] DIR")
		os.Exit(2)
	}
	dir := flag.Arg(0)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, name := range denselines.Shapes() {
		n := *size
		if n == 0 {
			n = 60 << 20
			if name == "messages" {
				n = 32 << 20
			}
		}
		path := filepath.Join(dir, name+".jsonl")
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		count, err := denselines.Write(f, name, n)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%s: %d elements, %s\n", path, count, denselines.Doc(name))
	}
}
