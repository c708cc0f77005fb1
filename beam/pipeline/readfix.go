package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/jsonl"
)

// A fixing job writes a file's lines whole or not at all. The reader skips
// a line over --max-line-size without holding it (that is the bound), so
// the job cannot write it back; emitting the file's other units would
// write the file without that line, and its lines are mixed with other
// files' once written. So a file with such a line is found before any of
// its units leaves the reader: the job then emits none of them (no record,
// no reject), notes the line as the error it is, and exits 2, as `chatlint
// fix` writes nothing for such a file and exits 2.

// readFix reads one file for a fixing job. A file that may hold a line over
// the bound is scanned first for line lengths only, without decoding or
// keeping a line; then it is read as a checking job reads it, its units
// dropped when the scan found such a line. open opens the file afresh.
func (fn *ReadFn) readFix(ctx context.Context, name string, size int64, open func() (io.ReadCloser, error), emitUnit func(Unit), out *output) error {
	max := fn.MaxLineSize
	if max <= 0 {
		max = jsonl.DefaultMaxLineSize
	}
	w := &whole{}
	if mayHoldLongLine(name, size, max) {
		rc, err := open()
		if err != nil {
			return err
		}
		w.drop, err = hasLongLine(ctx, name, rc, max)
		rc.Close()
		if err != nil {
			return err
		}
	}
	rc, err := open()
	if err != nil {
		return err
	}
	defer rc.Close()
	if err := fn.read(ctx, name, rc, emitUnit, out, w); err != nil {
		return err
	}
	return w.check(name)
}

// mayHoldLongLine reports whether a file may hold a line over max: not when
// it is no longer than max as listed, unless it is decompressed while read
// (Beam's fileio opens a .gz file through gzip). A size of 0 may mean an
// unknown size.
func mayHoldLongLine(name string, size int64, max int) bool {
	return size == 0 || size > int64(max) || filepath.Ext(name) == ".gz"
}

// hasLongLine reads r to its end and reports whether a line is over max,
// with the reader the job reads with, so lines are cut the same way.
func hasLongLine(ctx context.Context, name string, r io.Reader, max int) (bool, error) {
	rd := jsonl.NewReader(r)
	rd.SetMaxLineSize(max)
	for {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		_, err := rd.Next()
		var tl *jsonl.LineTooLongError
		switch {
		case errors.Is(err, io.EOF):
			return false, nil
		case errors.As(err, &tl):
			return true, nil
		case err != nil:
			return false, fmt.Errorf("%s: %w", name, err)
		}
	}
}

// whole follows one file a fixing job reads: whether its units are dropped
// and what the read met, so that a file that changed between the scan and
// the read fails its bundle rather than losing a line.
type whole struct {
	drop  bool // the scan found a line over the bound: no unit is emitted
	long  int  // the first line over the bound the read met; 0 if none
	units int  // the units the read made
}

// longLine notes a line the read skipped for its length, and says in its
// finding that the file is not written.
func (w *whole) longLine(f finding.Finding) finding.Finding {
	if w.long == 0 {
		w.long = f.Line
	}
	if w.drop {
		f.Message += " (nothing is written for this file)"
	}
	return f
}

// keep counts a unit and reports whether it is emitted.
func (w *whole) keep() bool {
	w.units++
	return !w.drop
}

// check fails the read when the scan and the read disagree: the file
// changed in between. Units emitted before the read met a line over the
// bound would be written without it; units dropped for a line the read no
// longer met would be lost with no note. A failed bundle's output is
// discarded, and the runner retries it or fails the job.
func (w *whole) check(name string) error {
	switch {
	case w.long > 0 && !w.drop:
		return fmt.Errorf("%s: line %d is over --max-line-size, but the file held no such line when the job looked before reading it: it changed while the job read it; fix files that no longer change", name, w.long)
	case w.drop && w.long == 0 && w.units > 0:
		return fmt.Errorf("%s: a line over --max-line-size was found, then not when the file was read: it changed while the job read it; fix files that no longer change", name)
	}
	return nil
}
