package repair

import (
	"errors"
	"io"

	"github.com/chatlint/chatlint/engine/jsonl"
)

// notJSONL says what the file is when it is not JSON Lines at all (binary,
// Markdown, one pretty-printed JSON document; see jsonl.Sniff), "" when it
// may be JSON Lines; f is left at its start. A pretty-printed document is
// read whole to be told from JSON Lines with a broken first line, up to a
// bound beyond which it is left to the line scan.
func notJSONL(name string, f io.ReadSeeker, size int64) (string, error) {
	head := make([]byte, jsonl.SniffSize)
	k, err := io.ReadFull(f, head)
	eof := errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
	if err != nil && !eof {
		return "", err
	}
	what := ""
	switch s := jsonl.Sniff(name, head[:k], eof); s.Kind {
	case jsonl.Binary, jsonl.Text:
		what = s.What
	case jsonl.MaybeDocument:
		if size <= jsonl.DefaultMaxLineSize {
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				return "", err
			}
			data, err := io.ReadAll(f)
			if err != nil {
				return "", err
			}
			if doc, ok := jsonl.Document(data); ok {
				what = doc + ", not JSON Lines"
			}
		}
	}
	_, err = f.Seek(0, io.SeekStart)
	return what, err
}
