package jsonl

// Layout is what a JSON Lines file holds besides its records, which the
// reader accepts and a stricter consumer does not: a UTF-8 byte-order mark
// before the first line, and blank lines (empty or white space only)
// between records. Python's json.loads, which every fine-tuning provider's
// loader calls once per line, fails on both; the rules of a provider
// profile report them from the file's dataset document.
type Layout struct {
	// BOM is true when the first line starts with a UTF-8 byte-order mark.
	BOM bool
	// Blank lists the line numbers of the blank lines the reader skipped,
	// at most MaxBlankLines of them; Blanks counts them all.
	Blank  []int
	Blanks int
}

// MaxBlankLines bounds the blank lines a Layout lists (the count goes on),
// so that a file of blank lines costs no memory.
const MaxBlankLines = 1000

// Layout returns what the reader has seen of the file's layout so far; read
// it after the last record.
func (r *Reader) Layout() Layout { return r.layout }

// skipBlank notes a blank line the reader skips.
func (r *Reader) skipBlank(line int) {
	r.layout.Blanks++
	if len(r.layout.Blank) < MaxBlankLines {
		r.layout.Blank = append(r.layout.Blank, line)
	}
}
