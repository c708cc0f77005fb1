package repair

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/chatlint/chatlint/engine/atomicfile"
	"github.com/chatlint/chatlint/engine/jsonl"
)

// Seams for tests: they simulate a failing disk without one.
var (
	open       = func(name string) (source, error) { return os.Open(name) }
	backupFile = atomicfile.Backup
	writeFile  = atomicfile.Write
)

// source is what File reads: an *os.File in production.
type source interface {
	io.ReadSeekCloser
	Stat() (fs.FileInfo, error)
}

// File repairs the JSONL file at path. A clean file is only read: its bytes
// and modification time stay as they were. A file with lines to drop (or to
// split or mend, see Scanner) is
// first copied byte for byte to a backup beside it, then replaced
// atomically by its kept records, each written byte for byte as it was read,
// LF-terminated, in a file with the original's mode. Any failure leaves the
// original as it was and is reported in the Result.
func File(path string, opts Options) Result {
	res := Result{File: path}
	fail := func(err error) Result {
		res.Outcome, res.Reason = Failed, describe(err)
		return res
	}
	// check reads a .json file as one document; cutting it into lines would
	// drop nearly all of it.
	if jsonl.IsJSONDocument(path) {
		res.Outcome, res.Reason = Skipped, ReasonJSONDocument
		return res
	}
	// Rewrite the target of a symbolic link, not the link itself.
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fail(err)
	}
	// Stat before opening: opening a FIFO would wait for a writer.
	fi, err := os.Stat(real)
	if err != nil {
		return fail(err)
	}
	if fi.IsDir() {
		return fail(errors.New("is a directory"))
	}
	if !fi.Mode().IsRegular() {
		return fail(errors.New("not a regular file"))
	}
	f, err := open(real)
	if err != nil {
		return fail(err)
	}
	defer f.Close()
	if ofi, err := f.Stat(); err != nil || !os.SameFile(fi, ofi) {
		return fail(errChanged) // replaced between the stat and the open
	}

	if what, err := notJSONL(path, f, fi.Size()); err != nil {
		return fail(fmt.Errorf("read error: %s", describe(err)))
	} else if what != "" {
		res.Outcome, res.Reason = Refused, "the file is "+what
		return res
	}

	var first []byte
	var next [][]byte
	res.Stats, err = Scan(f, func(r Record) error {
		switch {
		case !r.Kept:
		case first == nil:
			first = append([]byte{}, r.Data...)
		case len(next) < probeRecords:
			next = append(next, append([]byte{}, r.Data...))
		}
		return nil
	})
	if err != nil {
		return fail(fmt.Errorf("read error: %s", describe(err)))
	}
	st := res.Stats
	switch {
	case st.Records == 0 && st.Dropped == 0:
		res.Outcome, res.Reason = Empty, ReasonEmpty
	case st.Records == 0:
		res.Outcome, res.Reason = Skipped, ReasonNoJSON
	case !headerOK(first, next, opts.Format):
		res.Outcome, res.Reason = Skipped, ReasonHeader
	case !st.Changed():
		res.Outcome = Clean
	case st.Dropped > st.Records && !opts.Force:
		res.Outcome, res.Reason = Skipped, fmt.Sprintf("%s (%d of %d); --force repairs it anyway", ReasonMostlyInvalid, st.Dropped, st.Dropped+st.Records)
	case opts.DryRun:
		res.Outcome = WouldRepair
	default:
		bak, err := rewrite(real, f, fi, st, opts)
		if err != nil {
			res.Outcome, res.Reason = Failed, "repair failed, file left as it was: "+err.Error()
			return res
		}
		res.Outcome, res.Backup = Repaired, bak
	}
	return res
}

// describe words an error about path the way users expect: "no such file or
// directory" rather than "lstat data/x.jsonl: no such file or directory",
// since the report line already names the file.
func describe(err error) string {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}
