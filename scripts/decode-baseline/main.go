// Command decode-baseline decodes every line of a JSONL file with
// encoding/json into `any` on one goroutine and discards it: the baseline
// scripts/bench compares chatlint's no-rules floor against.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: decode-baseline FILE.jsonl")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	bad := 0
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			var v any
			if json.Unmarshal(line, &v) != nil {
				bad++
			}
		}
		if err != nil {
			break
		}
	}
	if bad > 0 {
		fmt.Fprintf(os.Stderr, "%d lines did not decode\n", bad)
	}
}
