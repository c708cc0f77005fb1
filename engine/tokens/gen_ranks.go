//go:build ignore

// gen_ranks writes ranks/<encoding>.bin, the rank tables the counter
// embeds, from tiktoken-go's: each token's bytes in rank order, each after
// one byte of its length. Run with `go generate ./engine/tokens`;
// TestRanksMatchTiktokenGo checks the files against the library.
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/tiktoken-go/tokenizer"
)

func main() {
	for _, enc := range []tokenizer.Encoding{tokenizer.O200kBase, tokenizer.Cl100kBase} {
		c, err := tokenizer.Get(enc)
		if err != nil {
			fail(err)
		}
		var out bytes.Buffer
		n := 0
		for id := 0; ; id++ {
			tok, err := c.Decode([]uint{uint(id)})
			if err != nil {
				break // ids are dense; the special tokens after them are not in the table
			}
			if tok == "" || len(tok) > 255 {
				fail(fmt.Errorf("%s: token %d is %d bytes", enc, id, len(tok)))
			}
			out.WriteByte(byte(len(tok)))
			out.WriteString(tok)
			n++
		}
		if err := os.WriteFile("ranks/"+string(enc)+".bin", out.Bytes(), 0o644); err != nil {
			fail(err)
		}
		fmt.Printf("%s: %d tokens, %d bytes\n", enc, n, out.Len())
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen_ranks:", err)
	os.Exit(1)
}
