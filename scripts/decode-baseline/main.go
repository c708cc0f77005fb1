// Command decode-baseline decodes every line of a JSONL file with
// encoding/json into `any` on one goroutine and discards it: the baseline
// scripts/bench compares chatlint's no-rules floor against. With -scan it only
// splits the file into lines (a bufio scan), the I/O ceiling of a JSONL reader.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

func main() {
	scan := len(os.Args) == 3 && os.Args[1] == "-scan"
	if len(os.Args) != 2 && !scan {
		fmt.Fprintln(os.Stderr, "usage: decode-baseline [-scan] FILE.jsonl")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[len(os.Args)-1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	if scan {
		for {
			if _, err := r.ReadSlice('\n'); err != nil && err != bufio.ErrBufferFull {
				return
			}
		}
	}
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
