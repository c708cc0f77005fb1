// Package parquetrows reads the rows of a Parquet file (a Hugging Face
// dataset shard, say) as JSON records, one row group at a time, so that the
// format adapters read them as they read JSON Lines. A row is the JSON object
// of its columns, in the schema's order (nested groups as objects, lists as
// arrays, byte arrays that are not strings as base64). A row with no
// messages column but a conversation in other columns also gets a messages
// member made from them (Messages), which the chat adapter reads.
//
// Memory: the file's footer, one row group's pages as the library reads them
// and a batch of rows; never the whole file.
package parquetrows

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/chatlint/chatlint/engine/jsonl"
)

// Magic is the first and last four bytes of every Parquet file.
const Magic = "PAR1"

// batch is the number of rows read from a row group at a time.
const batch = 64

// IsParquet reports whether path names a Parquet file by its extension.
func IsParquet(path string) bool { return strings.EqualFold(filepath.Ext(path), ".parquet") }

// Error is a file that is not a Parquet file the library can read, or a row
// that could not be read: what and where.
type Error struct {
	Row int // 1-based; 0 for the file as a whole
	Msg string
}

func (e *Error) Error() string {
	if e.Row == 0 {
		return "not a readable Parquet file: " + e.Msg
	}
	return fmt.Sprintf("row %d: %s", e.Row, e.Msg)
}

// ReadFile reads the rows of the Parquet file at path, handing each to emit
// as a record whose Line is its 1-based row number. It stops at the first
// error emit returns.
func ReadFile(path string, emit func(jsonl.Record) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	return Read(f, st.Size(), emit)
}

// Read reads the rows of a Parquet file of size bytes from r. A file the
// library cannot read, or that makes it panic, is an *Error, never a panic.
func Read(r io.ReaderAt, size int64, emit func(jsonl.Record) error) (err error) {
	var head [4]byte
	if size < 12 {
		return &Error{Msg: fmt.Sprintf("%d bytes is too short for a Parquet file", size)}
	}
	if _, err := r.ReadAt(head[:], 0); err != nil || string(head[:]) != Magic {
		return &Error{Msg: "the file does not start with the Parquet magic bytes PAR1"}
	}
	row := 0
	defer func() {
		if p := recover(); p != nil {
			err = &Error{Row: row, Msg: fmt.Sprintf("the Parquet reader failed: %v", p)}
		}
	}()
	pf, err := parquet.OpenFile(r, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return &Error{Msg: err.Error()}
	}
	schema := pf.Schema()
	var order []string
	for _, fl := range schema.Fields() {
		order = append(order, fl.Name())
	}
	buf := make([]parquet.Row, batch)
	for _, rg := range pf.RowGroups() {
		rows := rg.Rows()
		for {
			n, rerr := rows.ReadRows(buf)
			for _, pr := range buf[:n] {
				row++
				m := map[string]any{}
				if err := schema.Reconstruct(&m, pr); err != nil {
					rows.Close()
					return &Error{Row: row, Msg: err.Error()}
				}
				data, err := encode(order, m)
				if err != nil {
					rows.Close()
					return &Error{Row: row, Msg: err.Error()}
				}
				if err := emit(jsonl.Record{Line: row, Data: data, Raw: data}); err != nil {
					rows.Close()
					return err
				}
			}
			if errors.Is(rerr, io.EOF) {
				break
			}
			if rerr != nil {
				rows.Close()
				return &Error{Row: row + 1, Msg: rerr.Error()}
			}
			if n == 0 {
				break
			}
		}
		if err := rows.Close(); err != nil {
			return &Error{Row: row, Msg: err.Error()}
		}
	}
	return nil
}

// encode writes a row as a JSON object, its columns in the schema's order,
// with the messages Messages makes when it has none.
func encode(order []string, m map[string]any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	put := func(k string, v any) error {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		if err := enc.Encode(v); err != nil {
			return err
		}
		b.Truncate(b.Len() - 1) // the encoder's newline
		return nil
	}
	for _, k := range order {
		if err := put(k, m[k]); err != nil {
			return nil, err
		}
	}
	if ms := Messages(m); ms != nil {
		if err := put("messages", ms); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
