package runner

import (
	"context"
	"errors"
	"fmt"

	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/parquetrows"
)

// readParquet reads a Parquet file's rows as records (engine/parquetrows),
// one row group at a time: each row is routed as a JSON line would be, its
// row number as its line. A file the Parquet reader cannot read is an
// error of the input; a row it cannot read ends the file with a finding on
// that row, the rows before it kept.
func (p *producer) readParquet(ctx context.Context, in Input) (int, *fileState, error) {
	st := &fileState{name: in.Name, format: p.opts.Format, detected: p.opts.Format != ""}
	max := p.opts.MaxLineSize
	if max <= 0 {
		max = jsonl.DefaultMaxLineSize
	}
	n := 0
	err := parquetrows.ReadFile(in.Path, func(rec jsonl.Record) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		n++
		p.counts.bytes.Add(int64(len(rec.Data)))
		if len(rec.Data) > max {
			f := lint.LineTooLongFinding(in.Name, rec.Line, fmt.Sprintf(
				"row %d is %d bytes as JSON, over the limit of %d bytes (--max-line-size); it was skipped", rec.Line, len(rec.Data), max))
			p.send(job{finding: &f})
			return nil
		}
		p.record(st, rec, false)
		return nil
	})
	var pe *parquetrows.Error
	if errors.As(err, &pe) && pe.Row > 0 {
		f := lint.SyntaxFinding(in.Name, pe.Row, pe.Msg)
		p.send(job{finding: &f})
		st.skipped = true
		err = nil
	}
	p.finish(st)
	if err != nil {
		return n, st, fmt.Errorf("%s: %w", in.Name, err)
	}
	return n, st, nil
}
