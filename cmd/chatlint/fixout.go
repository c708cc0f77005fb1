package main

import (
	"bufio"
	"errors"
	"io"
	"os"
	"time"

	"github.com/chatlint/chatlint/engine/atomicfile"
)

// The file operations, swapped in tests to simulate a failing disk.
var (
	atomicWrite = atomicfile.Write
	backupFile  = atomicfile.Backup
)

// errUnchanged aborts the replacement of a file fix did not change: the
// temporary file is removed and the original keeps its bytes and time.
var errUnchanged = errors.New("unchanged")

// outFile streams one output file through atomicfile.Write: records are
// written as they come (memory stays flat), and the file appears only when
// it is committed: temp file, fsync, mode kept, rename.
type outFile struct {
	path string
	pw   *io.PipeWriter
	bw   *bufio.Writer
	done chan error
	err  error
}

func openOut(path string) *outFile {
	pr, pw := io.Pipe()
	o := &outFile{path: path, pw: pw, bw: bufio.NewWriterSize(pw, 64<<10), done: make(chan error, 1)}
	go func() {
		err := atomicWrite(path, 0o644, func(w io.Writer) error {
			_, err := io.Copy(w, pr)
			return err
		})
		// If Write failed before reading, writers must not block.
		pr.CloseWithError(orClosed(err))
		o.done <- err
	}()
	return o
}

func orClosed(err error) error {
	if err == nil {
		return io.ErrClosedPipe
	}
	return err
}

func (o *outFile) write(parts ...[]byte) {
	for _, p := range parts {
		if o.err != nil {
			return
		}
		_, o.err = o.bw.Write(p)
	}
}

func (o *outFile) writeString(s string) {
	if o.err == nil {
		_, o.err = o.bw.WriteString(s)
	}
}

// commit finishes the file; backup, when set, first copies the file being
// replaced and returns the backup's name.
func (o *outFile) commit(backup bool) (string, error) {
	if o.err == nil {
		o.err = o.bw.Flush()
	}
	if o.err != nil {
		o.pw.CloseWithError(o.err)
		<-o.done
		return "", o.err
	}
	var bak string
	if backup {
		var err error
		if bak, err = backupFile(o.path, time.Now()); err != nil {
			o.pw.CloseWithError(err)
			<-o.done
			return "", err
		}
	}
	o.pw.Close()
	if err := <-o.done; err != nil {
		if bak != "" {
			os.Remove(bak) // the original is intact: the backup is not needed
		}
		return "", err
	}
	return bak, nil
}

// abort drops the temporary file; the destination is left as it was.
func (o *outFile) abort() {
	o.pw.CloseWithError(errUnchanged)
	<-o.done
}
